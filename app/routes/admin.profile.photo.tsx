import { appContext } from "~/context";
import { ProfileEditor } from "~/features/profile";
import { answerForm, PHOTO_UPLOAD, editPhoto } from "~/features/profile/index.server";

import type { Route } from "./+types/admin.profile.photo";

/** The photo's form of /admin/profile posts here. */
export async function action({ request, context }: Route.ActionArgs) {
  const { db, env } = context.get(appContext);
  return answerForm(request, (form, files) => editPhoto(db, form, files, env), PHOTO_UPLOAD);
}

/** The whole editor, with this form's result (after a post without JavaScript). */
export default function Section({ matches }: Route.ComponentProps) {
  return <ProfileEditor {...matches[1].loaderData} />;
}
