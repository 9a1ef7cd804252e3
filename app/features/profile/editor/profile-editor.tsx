import type { ProfileContent } from "../profile";
import type { Education, Experience } from "../timeline/timeline";
import { TimelineEditor } from "../timeline/timeline-editor";
import { EditorSection } from "./editor-section";
import { ProfileForm } from "./profile-form";
import type { ToolGlyphs } from "./profile-lists";
import { ResumeSection } from "./resume-section";
import { CvForm, PhotoForm, type EditorCv, type EditorPhoto } from "./upload-forms";

/** What /admin/profile edits, as its loader reads it. */
export type ProfileEditorData = {
  profile: ProfileContent;
  photo: EditorPhoto;
  cv: EditorCv;
  experiences: Experience[];
  education: Education[];
  toolGlyphs: ToolGlyphs;
  /** The owner's fediverse handle, and the whole address people follow (`@handle@host`). */
  fediverse: { handle: string; address: string };
};

/**
 * The owner's editor of the résumé: every form of /admin/profile, each posting to its own
 * section's action (./actions.ts) and saved on its own.
 */
export function ProfileEditor({
  profile,
  photo,
  cv,
  experiences,
  education,
  toolGlyphs,
  fediverse,
}: ProfileEditorData) {
  return (
    <div className="space-y-10 py-12">
      <div className="flex flex-wrap items-center justify-between gap-4">
        <h1 className="text-3xl font-bold text-slate-900 dark:text-white">Edit profile</h1>
        <a href="/" className="text-sky-800 underline-offset-2 hover:underline dark:text-sky-300">
          View the home page
        </a>
      </div>
      <EditorSection id="profile" title="Profile">
        <div className="mt-6 grid gap-6 md:grid-cols-2">
          <PhotoForm photo={photo} />
          <CvForm cv={cv} />
        </div>
        <ProfileForm profile={profile} toolGlyphs={toolGlyphs} fediverse={fediverse} />
      </EditorSection>
      <TimelineEditor kind="experience" entries={experiences} />
      <TimelineEditor kind="education" entries={education} />
      <ResumeSection />
    </div>
  );
}
