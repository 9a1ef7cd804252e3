export { autosavePost, discardChanges } from "./autosave.server";
export { readAutosave, readPostWrite, storableContent } from "./content.server";
export { openEditablePost } from "./editor/editable-post.server";
export { revisionSourceOf } from "./revisions/source.server";
export { refusedSave } from "./save-answers.server";
export { FEED_LANGUAGE, type Feed, serveFeed } from "./feeds.server";
export { warmHighlighter } from "./highlight.server";
export { loadPostSanitizer } from "./sanitize.server";
export { absoluteMediaUrls } from "./render.server";
export { type PostPage } from "./post-rows.server";
export {
  allPostDates,
  findPostByPath,
  getPost,
  listOwnerPosts,
  listPostsPage,
  listTagPage,
  listTags,
} from "./read.server";
export { readPostView } from "./reader/post-view.server";
export { answerTrashForm } from "./trash-action.server";
export { countTrash, findTrashed, listTrash, trashPost } from "./trash.server";
export {
  postHistory,
  readRestoreRequest,
  restoreAnswerOf,
  restoreConflictOf,
  revisionView,
} from "./revisions/history.server";
export { restoreRevision } from "./revisions/restore.server";
export { headRevision } from "./revisions/store.server";
export {
  EditConflictError,
  SlugTakenError,
  createPost,
  nextScheduledIn,
  publishDuePosts,
  updatePost,
} from "./write.server";
export { POST_JOBS } from "./purge.server";
export { exportFileName, exportPosts, exportStream } from "./export.server";
