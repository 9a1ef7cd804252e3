export { readPostWrite } from "./content.server";
export { FEED_LANGUAGE, type Feed, serveFeed } from "./feeds.server";
export { warmHighlighter } from "./highlight.server";
export {
  type PostPage,
  SlugTakenError,
  allPostDates,
  createPost,
  deletePost,
  findPostByPath,
  getPost,
  listOwnerPosts,
  listPostsPage,
  listTagPage,
  listTags,
  nextScheduledIn,
  publishDuePosts,
  relatedPosts,
  updatePost,
} from "./posts.server";
export { type RenderedPost, renderPostHtml } from "./render.server";
export { loadPostSanitizer, loadWriteSanitizer } from "./sanitize.server";
