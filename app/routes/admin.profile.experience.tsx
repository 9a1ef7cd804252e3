import { appContext } from "~/context";
import { ProfileEditor } from "~/features/profile";
import { answerForm, editTimeline } from "~/features/profile/index.server";

import type { Route } from "./+types/admin.profile.experience";

/** The experience timeline's forms of /admin/profile post here. */
export async function action({ request, context }: Route.ActionArgs) {
  return answerForm(request, (form) =>
    editTimeline(context.get(appContext).db, "experience", form),
  );
}

/** The whole editor, with this form's result (after a post without JavaScript). */
export default function Section({ matches }: Route.ComponentProps) {
  return <ProfileEditor {...matches[1].loaderData} />;
}
