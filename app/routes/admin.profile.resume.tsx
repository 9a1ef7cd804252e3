import { appContext } from "~/context";
import { ProfileEditor } from "~/features/profile";
import { answerForm, importResume, RESUME_UPLOAD } from "~/features/profile/index.server";

import type { Route } from "./+types/admin.profile.resume";

/** The JSON Resume import (preview, then confirm) of /admin/profile posts here. */
export async function action({ request, context }: Route.ActionArgs) {
  return answerForm(
    request,
    (form, files) => importResume(context.get(appContext).db, form, files),
    RESUME_UPLOAD,
  );
}

/** The whole editor, with this form's result (after a post without JavaScript). */
export default function Section({ matches }: Route.ComponentProps) {
  return <ProfileEditor {...matches[1].loaderData} />;
}
