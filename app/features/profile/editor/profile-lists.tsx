import type { ReactNode } from "react";

import { SelectField, TextField } from "~/ui/fields";

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
import type { ProfileContent } from "../profile";
import type { ToolGlyphData } from "../tool-icons";
import { ListEditor } from "./list-editor";

/** Every tool icon's mark, drawn by the loader. */
export type ToolGlyphs = Record<ToolIcon, ToolGlyphData>;

/** A list as stored, with what was typed and refused (without JavaScript) and its errors. */
type ListProps<Item> = {
  stored: Item[];
  values?: Record<string, string>;
  errors: Record<string, string>;
};

export function SocialsList({
  stored,
  values,
  errors,
}: ListProps<ProfileContent["socials"][number]>) {
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

/**
 * Skills and tools alike: a name, and an icon picked from `icons` with its mark beside the
 * list (`preview`, for the icon and the name as typed).
 */
function NamedIconList({
  list,
  title,
  addLabel,
  nameLabel,
  icons,
  defaultIcon,
  preview,
  stored,
  values,
  errors,
}: ListProps<{ name: string; icon: string }> & {
  list: "skills" | "tools";
  title: string;
  addLabel: string;
  nameLabel: string;
  icons: Readonly<Record<string, string>>;
  defaultIcon: string;
  preview: (icon: string, name: string) => ReactNode;
}) {
  return (
    <ListEditor
      list={list}
      title={title}
      addLabel={addLabel}
      stored={stored}
      blank={{ icon: defaultIcon, name: "" }}
      values={values}
      errors={errors}
      render={(row, fieldName, setField) => (
        <>
          <TextField
            label={nameLabel}
            name={fieldName("name")}
            defaultValue={row.name}
            error={errors[fieldName("name")]}
          />
          <SelectField
            label="Icon"
            name={fieldName("icon")}
            value={row.icon ?? defaultIcon}
            options={icons}
            onChange={(v) => setField("icon", v)}
            error={errors[fieldName("icon")]}
            preview={preview(row.icon ?? defaultIcon, row.name ?? "")}
          />
        </>
      )}
    />
  );
}

export function SkillsList(props: ListProps<ProfileContent["skills"][number]>) {
  return (
    <NamedIconList
      list="skills"
      title="Skills"
      addLabel="Add skill"
      nameLabel="Skill"
      icons={SKILL_ICONS}
      defaultIcon="code"
      preview={(icon) => <SkillGlyph icon={icon as SkillIcon} className="size-6" />}
      {...props}
    />
  );
}

export function ToolsList({
  toolGlyphs,
  ...props
}: ListProps<ProfileContent["tools"][number]> & { toolGlyphs: ToolGlyphs }) {
  return (
    <NamedIconList
      list="tools"
      title="Tools"
      addLabel="Add tool"
      nameLabel="Tool"
      icons={TOOL_ICONS}
      defaultIcon="initials"
      preview={(icon, name) => (
        <ToolGlyph
          glyph={
            icon === "initials"
              ? { letters: initialsOf(name || "?") }
              : toolGlyphs[icon as ToolIcon]
          }
          className="size-7"
        />
      )}
      {...props}
    />
  );
}
