import { useFetcher } from "react-router";

import { FormStatus, SelectField, TextField } from "~/ui/fields";

import {
  initialsOf,
  SKILL_ICONS,
  SOCIAL_KINDS,
  TOOL_ICONS,
  type SkillIcon,
  type SocialKind,
  type ToolIcon,
} from "../icon-set";
import { SkillGlyph, SocialGlyph, ToolGlyph } from "../icons";
import { PROFILE_LIMITS, type ProfileContent } from "../profile";
import type { ToolGlyphData } from "../tool-icons";
import { EDITOR_ACTIONS } from "./actions";
import { useFormResult } from "./form-result";
import { IntentButton } from "./intent-button";
import { ListEditor } from "./list-editor";

/** Every tool icon's mark, drawn by the loader. */
export type ToolGlyphs = Record<ToolIcon, ToolGlyphData>;

/** The profile's text and lists, saved together. */
export function ProfileForm({
  profile,
  toolGlyphs,
}: {
  profile: ProfileContent;
  toolGlyphs: ToolGlyphs;
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

/** A list as stored, with what was typed and refused (without JavaScript) and its errors. */
type ListProps<Item> = {
  stored: Item[];
  values?: Record<string, string>;
  errors: Record<string, string>;
};

function SocialsList({ stored, values, errors }: ListProps<ProfileContent["socials"][number]>) {
  return (
    <ListEditor
      list="socials"
      title="Social links"
      addLabel="Add link"
      stored={stored}
      blank={{ kind: "website", label: "", url: "" }}
      values={values}
      errors={errors}
      render={(row, fieldName, setField) => (
        <>
          <SelectField
            label="Kind"
            name={fieldName("kind")}
            value={row.kind ?? "website"}
            options={SOCIAL_KINDS}
            onChange={(v) => setField("kind", v)}
            error={errors[fieldName("kind")]}
            preview={
              <SocialGlyph kind={(row.kind ?? "website") as SocialKind} className="size-5" />
            }
          />
          <TextField
            label="Label"
            name={fieldName("label")}
            defaultValue={row.label}
            error={errors[fieldName("label")]}
          />
          <TextField
            label="URL"
            name={fieldName("url")}
            type="url"
            defaultValue={row.url}
            error={errors[fieldName("url")]}
          />
        </>
      )}
    />
  );
}

function SkillsList({ stored, values, errors }: ListProps<ProfileContent["skills"][number]>) {
  return (
    <ListEditor
      list="skills"
      title="Skills"
      addLabel="Add skill"
      stored={stored}
      blank={{ icon: "code", name: "" }}
      values={values}
      errors={errors}
      render={(row, fieldName, setField) => (
        <>
          <TextField
            label="Skill"
            name={fieldName("name")}
            defaultValue={row.name}
            error={errors[fieldName("name")]}
          />
          <SelectField
            label="Icon"
            name={fieldName("icon")}
            value={row.icon ?? "code"}
            options={SKILL_ICONS}
            onChange={(v) => setField("icon", v)}
            error={errors[fieldName("icon")]}
            preview={<SkillGlyph icon={(row.icon ?? "code") as SkillIcon} className="size-6" />}
          />
        </>
      )}
    />
  );
}

function ToolsList({
  stored,
  values,
  errors,
  toolGlyphs,
}: ListProps<ProfileContent["tools"][number]> & { toolGlyphs: ToolGlyphs }) {
  return (
    <ListEditor
      list="tools"
      title="Tools"
      addLabel="Add tool"
      stored={stored}
      blank={{ icon: "initials", name: "" }}
      values={values}
      errors={errors}
      render={(row, fieldName, setField) => (
        <>
          <TextField
            label="Tool"
            name={fieldName("name")}
            defaultValue={row.name}
            error={errors[fieldName("name")]}
          />
          <SelectField
            label="Icon"
            name={fieldName("icon")}
            value={row.icon ?? "initials"}
            options={TOOL_ICONS}
            onChange={(v) => setField("icon", v)}
            error={errors[fieldName("icon")]}
            preview={
              <ToolGlyph
                glyph={
                  (row.icon ?? "initials") === "initials"
                    ? { letters: initialsOf(row.name || "?") }
                    : toolGlyphs[row.icon as ToolIcon]
                }
                className="size-7"
              />
            }
          />
        </>
      )}
    />
  );
}
