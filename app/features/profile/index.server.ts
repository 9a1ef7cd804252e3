export { type FormResult, handleProfileAction } from "./editor.server";
export {
  type StoredProfile,
  ensureProfile,
  forgetProfile,
  listExperiences,
  listStudies,
  pickContent,
  rememberedProfile,
} from "./profile.server";
export { toResume } from "./resume.server";
