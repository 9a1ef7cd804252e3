export { answerForm } from "./editor/form.server";
export { editProfile } from "./editor/profile-action.server";
export { importResume, RESUME_UPLOAD } from "./editor/resume-action.server";
export { CV_UPLOAD, editCv, editPhoto, PHOTO_UPLOAD } from "./editor/upload-action.server";
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
