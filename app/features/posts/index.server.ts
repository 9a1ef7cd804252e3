export { readPostWrite } from "./content.server";
export { editablePostOf } from "./editor/editable-post.server";
export { FEED_LANGUAGE, type Feed, serveFeed } from "./feeds.server";
export { warmHighlighter } from "./highlight.server";
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
export {
  postHistory,
  readRestoreRequest,
  restoreAnswerOf,
  restoreConflictOf,
  revisionView,
} from "./revisions/history.server";
export { restoreRevision } from "./revisions/restore.server";
export { headRevision } from "./revisions/store.server";
export { revisionSourceOf } from "./revisions/source.server";
export {
  EditConflictError,
  SlugTakenError,
  createPost,
  deletePost,
  nextScheduledIn,
  publishDuePosts,
  updatePost,
} from "./write.server";
