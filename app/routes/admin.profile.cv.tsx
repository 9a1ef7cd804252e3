import { appContext } from "~/context";
import { ProfileEditor } from "~/features/profile";
import { answerForm, CV_UPLOAD, editCv } from "~/features/profile/index.server";

import type { Route } from "./+types/admin.profile.cv";

/** The CV's form of /admin/profile posts here. */
export async function action({ request, context }: Route.ActionArgs) {
  const { db, env } = context.get(appContext);
  return answerForm(request, (form, files) => editCv(db, form, files, env), CV_UPLOAD);
}

/** The whole editor, with this form's result (after a post without JavaScript). */
export default function Section({ matches }: Route.ComponentProps) {
  return <ProfileEditor {...matches[1].loaderData} />;
}
