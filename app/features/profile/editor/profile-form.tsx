import { useFetcher } from "react-router";

import { HANDLE_MAX_CHARS, HANDLE_TEXT } from "~/features/social";
import { FormStatus, TextField } from "~/ui/fields";

import { PROFILE_LIMITS, type ProfileContent } from "../profile";
import { EDITOR_ACTIONS } from "./actions";
import { useFormResult } from "./form-result";
import { IntentButton } from "./form-buttons";
import { SkillsList, SocialsList, ToolsList, type ToolGlyphs } from "./profile-lists";

/** The profile's text and lists, saved together. */
export function ProfileForm({
  profile,
  toolGlyphs,
  fediverse,
}: {
  profile: ProfileContent;
  toolGlyphs: ToolGlyphs;
  fediverse: { handle: string; address: string };
}) {
  const fetcher = useFetcher();
  const result = useFormResult("profile", fetcher);
  const errors = result?.errors ?? {};
  const values = result?.ok === false ? result.values : undefined;
  const value = (name: keyof typeof profile & string, stored: string) => values?.[name] ?? stored;

  return (
    <fetcher.Form
      method="post"
      action={EDITOR_ACTIONS.profile}
      aria-label="Profile"
      className="mt-8 space-y-6"
      noValidate
    >
      <div className="grid gap-4 md:grid-cols-2">
        <TextField
          label="Name"
          name="name"
          defaultValue={value("name", profile.name)}
          error={errors.name}
        />
        <TextField
          label="Title"
          name="title"
          defaultValue={value("title", profile.title)}
          error={errors.title}
        />
        <TextField
          label="Location"
          name="location"
          defaultValue={value("location", profile.location)}
          error={errors.location}
        />
        <TextField
          label="E-mail"
          name="email"
          type="email"
          defaultValue={value("email", profile.email)}
          error={errors.email}
          hint="Shown on the site; contact messages go here unless OWNER_EMAIL is set."
        />
        <TextField
          label={HANDLE_TEXT.label}
          name="fediverseHandle"
          defaultValue={values?.fediverseHandle ?? fediverse.handle}
          error={errors.fediverseHandle}
          hint={`Followed on Mastodon and the fediverse as ${fediverse.address}. Letters, digits and underscores, at most ${HANDLE_MAX_CHARS}.`}
        />
      </div>
      <TextField
        label="About"
        name="about"
        multiline={6}
        defaultValue={values?.about ?? profile.about.join("\n\n")}
        error={errors.about}
        hint={`Paragraphs separated by a blank line, at most ${PROFILE_LIMITS.aboutParagraphs}.`}
      />
      <SocialsList stored={profile.socials} values={values} errors={errors} />
      <SkillsList stored={profile.skills} values={values} errors={errors} />
      <ToolsList stored={profile.tools} values={values} errors={errors} toolGlyphs={toolGlyphs} />
      <div className="flex flex-wrap items-center gap-4">
        <IntentButton intent="save" disabled={fetcher.state !== "idle"}>
          {fetcher.state !== "idle" ? "Saving..." : "Save"}
        </IntentButton>
        <FormStatus ok={result?.ok} message={result?.message} />
      </div>
    </fetcher.Form>
  );
}
