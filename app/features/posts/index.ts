export { BlogIndex } from "./blog-index";
export { FEED_FORMAT, FEED_FORMATS, feedAlternates, feedPath } from "./feeds";
export { NewPostLink } from "./new-post-link";
export { OwnerPostList } from "./owner-post-list";
export { PostList } from "./post-list";
export { PUBLISH_TEXT, type PublishState, isTag, postPath, tagPath } from "./publishing";
export { postMeta } from "./reader/post-meta";
export { PostReader } from "./reader/post-reader";
export { EDITOR_TEXT, POST_BODY_LIMIT, POST_LIMITS } from "./rules";
