export { answerForm } from "./editor/form.server";
export { editProfile } from "./editor/profile-action.server";
export { importResume } from "./editor/resume-action.server";
export { editCv, editPhoto } from "./editor/upload-action.server";
export { homeProfile } from "./home-profile.server";
export {
  type StoredProfile,
  ensureProfile,
  forgetProfile,
  pickContent,
  rememberedProfile,
} from "./profile.server";
export { toResume } from "./resume.server";
export { editTimeline } from "./timeline/timeline-action.server";
export { listEntries, readTimeline } from "./timeline/timeline.server";
