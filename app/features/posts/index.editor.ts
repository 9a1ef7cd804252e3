export { HistoryPanel, type RestoredVersion } from "./editor/history-panel";
export { PostEditor } from "./editor/post-editor";
