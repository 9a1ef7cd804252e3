export { handleProfileAction } from "./editor/action.server";
export {
  type StoredProfile,
  ensureProfile,
  forgetProfile,
  listExperiences,
  listEducation,
  pickContent,
  rememberedProfile,
} from "./profile.server";
export { toResume } from "./resume.server";
