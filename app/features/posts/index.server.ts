export { readPostWrite } from "./content.server";
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
  relatedPosts,
} from "./read.server";
export {
  SlugTakenError,
  createPost,
  deletePost,
  nextScheduledIn,
  publishDuePosts,
  updatePost,
} from "./write.server";
export { type RenderedPost, renderPostHtml } from "./render.server";
export { loadPostSanitizer, loadWriteSanitizer } from "./sanitize.server";
