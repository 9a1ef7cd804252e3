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
export { answerTrashForm } from "./trash-action.server";
export { countTrash, findTrashed, listTrash, trashPost } from "./trash.server";
export {
  SlugTakenError,
  createPost,
  nextScheduledIn,
  publishDuePosts,
  updatePost,
} from "./write.server";
