export { ProfileEditor } from "./editor/profile-editor";
export { type SocialKind, TOOL_ICONS, type ToolIcon } from "./icon-set";
export { SocialGlyph } from "./icons";
export { Profile } from "./profile-section";
export { type ProfileContent, type StoredCv, type StoredPhoto } from "./profile";
export { Skills } from "./skills-section";
export { Timeline } from "./timeline/timeline-section";
export { type ToolGlyphData, toolGlyph } from "./tool-icons";
export { Tools } from "./tools-section";
