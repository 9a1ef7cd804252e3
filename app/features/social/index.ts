export { defaultHandle, fullHandle, HANDLE_MAX_CHARS, HANDLE_TEXT, readHandle } from "./handle";
export { negotiatedPage, wantsActivityPub } from "./negotiation";
