import { appContext } from "~/context";
import { requireOwnerPage, requireOwnerWrite } from "~/features/owner/index.server";
import { ProfileEditor } from "~/features/profile";
import { answerForm, editCv } from "~/features/profile/index.server";

import type { Route } from "./+types/admin.profile.cv";

/** The CV's form of /admin/profile posts here. */
export async function loader({ request, context }: Route.LoaderArgs) {
  await requireOwnerPage(request, context);
  return null;
}

export async function action({ request, context }: Route.ActionArgs) {
  // Before the body is read: a stranger's post is not even received.
  await requireOwnerWrite(request, context);
  return answerForm(request, (form) => editCv(context.get(appContext).db, form));
}

/** The whole editor, with this form's result (after a post without JavaScript). */
export default function Section({ matches }: Route.ComponentProps) {
  return <ProfileEditor {...matches[1].loaderData} />;
}
