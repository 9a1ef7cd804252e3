export { PostEditor } from "./editor/post-editor";
