export { BlogIndex } from "./blog-index";
export { FEED_FORMAT, feedAlternates } from "./feeds";
export { OwnerPostList } from "./owner-post-list";
export { PUBLISH_TEXT, isTag, postPath, tagPath } from "./publishing";
export { postMeta } from "./reader/post-meta";
export { PostReader } from "./reader/post-reader";
export { EDITOR_TEXT, POST_BODY_LIMIT, POST_LIMITS } from "./rules";
export { TagIndex } from "./tag-index";
export { TagPage } from "./tag-page";
