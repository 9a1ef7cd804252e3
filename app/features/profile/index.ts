export { ProfileEditor, type ProfileEditorData } from "./editor/profile-editor";
export {
  SKILL_ICONS,
  SOCIAL_KINDS,
  type SkillIcon,
  type SocialKind,
  TOOL_ICONS,
  type ToolIcon,
  initialsOf,
} from "./icon-set";
export { SkillGlyph, SocialGlyph, ToolGlyph } from "./icons";
export { Profile } from "./profile-section";
export {
  PROFILE_LIMITS,
  type ProfileContent,
  type SocialLink,
  type StoredCv,
  type StoredPhoto,
} from "./profile";
export { Skills } from "./skills-section";
export { Timeline } from "./timeline/timeline-section";
export { type ToolGlyphData, toolGlyph } from "./tool-icons";
export { Tools } from "./tools-section";
