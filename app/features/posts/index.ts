export { FEED_FORMAT, FEED_FORMATS, feedAlternates, feedPath } from "./feeds";
export { PostList } from "./post-list";
export { PUBLISH_TEXT, type PublishState, isTag, postPath, tagPath } from "./publishing";
export { EDITOR_TEXT, POST_BODY_LIMIT, POST_LIMITS, readingTimeText } from "./rules";
export { TagLinks } from "./tag-links";
