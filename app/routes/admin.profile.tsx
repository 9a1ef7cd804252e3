import { buttonClass } from "~/ui/button";
import { ArrowDown, ArrowUp, Plus, Trash2, Upload } from "lucide-react";
import { useEffect, useRef, useState, type FormEvent } from "react";
import { data, useActionData, useFetcher, type FetcherWithComponents } from "react-router";

import { CheckboxField, FormStatus, SelectField, TextField } from "~/ui/fields";
import { SkillGlyph, SocialGlyph, ToolGlyph } from "~/features/profile";
import { appContext } from "~/context";
import {
  initialsOf,
  SKILL_ICONS,
  SOCIAL_KINDS,
  TOOL_ICONS,
  type SkillIcon,
  type SocialKind,
  type ToolIcon,
} from "~/features/profile";
import { formatBytes } from "~/lib/format";
import { PROFILE_LIMITS } from "~/features/profile";
import { pageMeta } from "~/features/site";
import { PHOTO_SIZE, siteCvUrl, sitePhoto } from "~/features/site";
import { readProfile } from "~/features/site/index.server";
import { toolGlyph, type ToolGlyphData } from "~/features/profile";
import { UPLOAD_ACCEPT, UPLOAD_LIMITS, uploadTooLargeText } from "~/features/media";
import { siteOf } from "~/features/site";
import { listExperiences, listStudies, pickContent } from "~/features/profile/index.server";
import { siteConfig } from "~/site.config";

import type { Route } from "./+types/admin.profile";
import { handleProfileAction, type FormResult } from "~/features/profile/index.server";

export async function loader({ context }: Route.LoaderArgs) {
  const { db } = context.get(appContext);
  const [stored, experiences, education] = await Promise.all([
    readProfile(db),
    listExperiences(db),
    listStudies(db),
  ]);
  return {
    profile: pickContent(stored),
    photo: {
      ...sitePhoto(stored, stored, siteConfig),
      uploaded: stored.photo !== null,
      configured: Boolean(siteConfig.photoUrl),
    },
    cv: {
      url: siteCvUrl(stored, siteConfig),
      uploaded: stored.cv !== null,
      configured: Boolean(siteConfig.cvUrl),
    },
    experiences,
    education,
    // Drawn here: the marks' paths would otherwise share a chunk with the home page's icons.
    toolGlyphs: Object.fromEntries(
      (Object.keys(TOOL_ICONS) as ToolIcon[]).map((icon) => [icon, toolGlyph({ name: "", icon })]),
    ) as Record<ToolIcon, ToolGlyphData>,
  };
}

/** Every button of the page posts here with its `intent`; only the owner may. */
export async function action({ request, context }: Route.ActionArgs) {
  let form: FormData;
  try {
    form = await request.formData();
  } catch {
    return data<FormResult>(
      { form: "form", ok: false, message: "The form could not be read." },
      { status: 400 },
    );
  }
  const { status, result } = await handleProfileAction(context.get(appContext).db, form);
  return data(result, { status });
}

export function meta({ matches }: Route.MetaArgs) {
  const site = siteOf(matches);
  return pageMeta({
    site,
    siteUrl: matches[0].loaderData.siteUrl,
    path: "/admin/profile",
    title: `Profile · ${site.name}`,
    description: "Edit the profile, experience and education.",
    noindex: true,
  });
}

type LoaderData = Route.ComponentProps["loaderData"];

/** The result for one form: its fetcher's (with JavaScript) or the page's (without). */
function useResult(key: string, fetcher: FetcherWithComponents<unknown>): FormResult | undefined {
  const actionData = useActionData<FormResult>();
  const own = fetcher.data as FormResult | undefined;
  if (own?.form === key) return own;
  if (fetcher.state === "idle" && !own && actionData?.form === key) return actionData;
  return undefined;
}

const sectionClass =
  "rounded-2xl border border-slate-200 bg-white p-6 shadow-sm dark:border-slate-800 dark:bg-slate-900";
const h2Class = "text-2xl font-bold text-slate-900 dark:text-white";

export default function AdminProfile({ loaderData }: Route.ComponentProps) {
  return (
    <div className="space-y-10 py-12">
      <div className="flex flex-wrap items-center justify-between gap-4">
        <h1 className="text-3xl font-bold text-slate-900 dark:text-white">Edit profile</h1>
        <a href="/" className="text-sky-800 underline-offset-2 hover:underline dark:text-sky-300">
          View the home page
        </a>
      </div>
      <section aria-labelledby="profile-heading" className={sectionClass}>
        <h2 id="profile-heading" className={h2Class}>
          Profile
        </h2>
        <div className="mt-6 grid gap-6 md:grid-cols-2">
          <PhotoForm photo={loaderData.photo} />
          <CvForm cv={loaderData.cv} />
        </div>
        <ProfileForm profile={loaderData.profile} toolGlyphs={loaderData.toolGlyphs} />
      </section>
      <EntriesSection kind="experience" entries={loaderData.experiences} />
      <EntriesSection kind="education" entries={loaderData.education} />
      <ResumeSection />
    </div>
  );
}

// ---------------------------------------------------------------------------------------------
// Profile

type ListName = "socials" | "skills" | "tools";
type Row = Record<string, string> & { key: string };

let rowSerial = 0;
const newKey = () => `row-${++rowSerial}`;

/** A list's rows: as typed (after a refused save without JavaScript) or as stored, plus a blank one. */
function initialRows(
  list: ListName,
  stored: Record<string, string>[],
  blank: Record<string, string>,
  values?: Record<string, string>,
): Row[] {
  if (values) {
    const numbers = new Set<number>();
    for (const key of Object.keys(values)) {
      const match = new RegExp(`^${list}\\.(\\d+)\\.`).exec(key);
      if (match) numbers.add(Number(match[1]));
    }
    return [...numbers]
      .sort((a, b) => a - b)
      .map((n, i) => ({
        key: `${list}-${i}`,
        ...Object.fromEntries(
          Object.keys(blank).map((field) => [field, values[`${list}.${n}.${field}`] ?? ""]),
        ),
        // Errors name the row by its number in the submitted form.
        number: String(n),
      }));
  }
  return [...stored, blank].map((row, i) => ({ key: `${list}-${i}`, ...row }));
}

function ProfileForm({
  profile,
  toolGlyphs,
}: {
  profile: LoaderData["profile"];
  toolGlyphs: LoaderData["toolGlyphs"];
}) {
  const fetcher = useFetcher();
  const result = useResult("profile", fetcher);
  const errors = result?.errors ?? {};
  const values = result?.ok === false ? result.values : undefined;
  const value = (name: keyof typeof profile & string, stored: string) => values?.[name] ?? stored;

  return (
    <fetcher.Form method="post" aria-label="Profile" className="mt-8 space-y-6" noValidate>
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
      <ListEditor
        list="socials"
        title="Social links"
        addLabel="Add link"
        stored={profile.socials}
        blank={{ kind: "website", label: "", url: "" }}
        values={values}
        errors={errors}
        render={(row, n, setField) => (
          <>
            <SelectField
              label="Kind"
              name={`socials.${n}.kind`}
              value={row.kind ?? "website"}
              options={SOCIAL_KINDS}
              onChange={(v) => setField("kind", v)}
              error={errors[`socials.${n}.kind`]}
              preview={
                <SocialGlyph kind={(row.kind ?? "website") as SocialKind} className="size-5" />
              }
            />
            <TextField
              label="Label"
              name={`socials.${n}.label`}
              defaultValue={row.label}
              error={errors[`socials.${n}.label`]}
            />
            <TextField
              label="URL"
              name={`socials.${n}.url`}
              type="url"
              defaultValue={row.url}
              error={errors[`socials.${n}.url`]}
            />
          </>
        )}
      />
      <ListEditor
        list="skills"
        title="Skills"
        addLabel="Add skill"
        stored={profile.skills}
        blank={{ icon: "code", name: "" }}
        values={values}
        errors={errors}
        render={(row, n, setField) => (
          <>
            <TextField
              label="Skill"
              name={`skills.${n}.name`}
              defaultValue={row.name}
              error={errors[`skills.${n}.name`]}
            />
            <SelectField
              label="Icon"
              name={`skills.${n}.icon`}
              value={row.icon ?? "code"}
              options={SKILL_ICONS}
              onChange={(v) => setField("icon", v)}
              error={errors[`skills.${n}.icon`]}
              preview={<SkillGlyph icon={(row.icon ?? "code") as SkillIcon} className="size-6" />}
            />
          </>
        )}
      />
      <ListEditor
        list="tools"
        title="Tools"
        addLabel="Add tool"
        stored={profile.tools}
        blank={{ icon: "initials", name: "" }}
        values={values}
        errors={errors}
        render={(row, n, setField) => (
          <>
            <TextField
              label="Tool"
              name={`tools.${n}.name`}
              defaultValue={row.name}
              error={errors[`tools.${n}.name`]}
            />
            <SelectField
              label="Icon"
              name={`tools.${n}.icon`}
              value={row.icon ?? "initials"}
              options={TOOL_ICONS}
              onChange={(v) => setField("icon", v)}
              error={errors[`tools.${n}.icon`]}
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
      <div className="flex flex-wrap items-center gap-4">
        <button
          type="submit"
          name="intent"
          value="save-profile"
          disabled={fetcher.state !== "idle"}
          className={buttonClass({ size: "sm" })}
        >
          {fetcher.state !== "idle" ? "Saving..." : "Save"}
        </button>
        <FormStatus ok={result?.ok} message={result?.message} />
      </div>
    </fetcher.Form>
  );
}

/**
 * One list of the profile (links, skills, tools): a row per item, a blank row to add one
 * without JavaScript (a row left empty is dropped), Add and Remove buttons with it.
 */
function ListEditor({
  list,
  title,
  addLabel,
  stored,
  blank,
  values,
  errors,
  render,
}: {
  list: ListName;
  title: string;
  addLabel: string;
  stored: Record<string, string>[];
  blank: Record<string, string>;
  values?: Record<string, string>;
  errors: Record<string, string>;
  render: (
    row: Row,
    n: number,
    setField: (field: string, value: string) => void,
  ) => React.ReactNode;
}) {
  const [rows, setRows] = useState(() => initialRows(list, stored, blank, values));
  const errorKeys = Object.keys(errors).filter((key) => key.startsWith(`${list}.`));
  const listError = errors[list];
  return (
    <fieldset className="rounded-xl border border-slate-200 p-4 dark:border-slate-700">
      <legend className="px-1 text-lg font-semibold text-slate-900 dark:text-white">{title}</legend>
      {listError ? (
        <p className="text-sm text-red-800 dark:text-red-300" role="alert">
          {listError}
        </p>
      ) : null}
      <ol className="space-y-4">
        {rows.map((row, i) => {
          const n = row.number !== undefined ? Number(row.number) : i;
          const setField = (field: string, value: string) =>
            setRows((all) => all.map((r) => (r.key === row.key ? { ...r, [field]: value } : r)));
          return (
            <li
              key={row.key}
              aria-label={`${title}: row ${i + 1}`}
              className="grid items-end gap-3 sm:grid-cols-[repeat(3,minmax(0,1fr))_auto]"
            >
              {render(row, n, setField)}
              <button
                type="button"
                className={buttonClass({ variant: "secondary", size: "sm" })}
                aria-label={`Remove ${title.toLowerCase()} row ${i + 1}`}
                onClick={() => setRows((all) => all.filter((r) => r.key !== row.key))}
              >
                <Trash2 aria-hidden="true" className="size-4" />
                Remove
              </button>
            </li>
          );
        })}
      </ol>
      {errorKeys.length > 0 ? <span className="sr-only">{errorKeys.length} errors</span> : null}
      <button
        type="button"
        className={buttonClass({ variant: "secondary", size: "sm", className: "mt-4" })}
        onClick={() => setRows((all) => [...all, { key: newKey(), ...blank }])}
      >
        <Plus aria-hidden="true" className="size-4" />
        {addLabel}
      </button>
    </fieldset>
  );
}

// ---------------------------------------------------------------------------------------------
// Photo and CV

/** Refuses a file over `limit` before it is sent, with the server's own text. */
function checkSize(
  event: FormEvent<HTMLFormElement>,
  limit: number,
  text: string,
  show: (m: string) => void,
) {
  const input = event.currentTarget.elements.namedItem("file");
  const file = input instanceof HTMLInputElement ? input.files?.[0] : undefined;
  if (file && file.size > limit) {
    event.preventDefault();
    show(text);
  }
}

function PhotoForm({ photo }: { photo: LoaderData["photo"] }) {
  const fetcher = useFetcher();
  const result = useResult("photo", fetcher);
  const [local, setLocal] = useState<string | null>(null);
  const busy = fetcher.state !== "idle";
  return (
    <fetcher.Form
      method="post"
      encType="multipart/form-data"
      aria-label="Photo"
      className="space-y-3"
      onSubmit={(event) => {
        setLocal(null);
        checkSize(event, UPLOAD_LIMITS.photo, uploadTooLargeText("photo"), setLocal);
      }}
    >
      <div className="flex items-center gap-4">
        <img
          src={photo.src}
          srcSet={photo.srcSet}
          sizes={photo.sizes}
          alt={photo.alt}
          width={PHOTO_SIZE / 2}
          height={PHOTO_SIZE / 2}
          className="size-20 rounded-full object-cover"
        />
        <div>
          <label
            htmlFor="photo-file"
            className="block text-sm font-medium text-slate-800 dark:text-slate-200"
          >
            Photo
          </label>
          <input
            id="photo-file"
            type="file"
            name="file"
            accept={UPLOAD_ACCEPT.photo}
            aria-describedby="photo-hint"
            className="mt-1 block text-sm text-slate-800 dark:text-slate-200"
          />
          <p id="photo-hint" className="mt-1 text-sm text-slate-600 dark:text-slate-400">
            JPEG, PNG or WebP, at most {formatBytes(UPLOAD_LIMITS.photo)}.
            {photo.configured ? " The site configuration's photoUrl is shown instead." : ""}
          </p>
        </div>
      </div>
      <div className="flex flex-wrap items-center gap-3">
        <button
          type="submit"
          name="intent"
          value="upload-photo"
          disabled={busy}
          className={buttonClass({ size: "sm" })}
        >
          <Upload aria-hidden="true" className="size-4" />
          Upload photo
        </button>
        {photo.uploaded ? (
          <button
            type="submit"
            name="intent"
            value="remove-photo"
            disabled={busy}
            className={buttonClass({ variant: "secondary", size: "sm" })}
          >
            Remove photo
          </button>
        ) : null}
        <FormStatus ok={local ? false : result?.ok} message={local ?? result?.message} />
      </div>
    </fetcher.Form>
  );
}

function CvForm({ cv }: { cv: LoaderData["cv"] }) {
  const fetcher = useFetcher();
  const result = useResult("cv", fetcher);
  const [local, setLocal] = useState<string | null>(null);
  const busy = fetcher.state !== "idle";
  return (
    <fetcher.Form
      method="post"
      encType="multipart/form-data"
      aria-label="CV"
      className="space-y-3"
      onSubmit={(event) => {
        setLocal(null);
        checkSize(event, UPLOAD_LIMITS.cv, uploadTooLargeText("cv"), setLocal);
      }}
    >
      <label
        htmlFor="cv-file"
        className="block text-sm font-medium text-slate-800 dark:text-slate-200"
      >
        CV (PDF)
      </label>
      <input
        id="cv-file"
        type="file"
        name="file"
        accept={UPLOAD_ACCEPT.cv}
        aria-describedby="cv-hint"
        className="block text-sm text-slate-800 dark:text-slate-200"
      />
      <p id="cv-hint" className="text-sm text-slate-600 dark:text-slate-400">
        PDF, at most {formatBytes(UPLOAD_LIMITS.cv)}.{" "}
        <a href={cv.url} className="text-sky-800 underline dark:text-sky-300">
          {cv.uploaded ? "The uploaded CV" : "The current CV"}
        </a>
        {cv.configured ? ": the site configuration's cvUrl, which wins over an upload." : "."}
      </p>
      <div className="flex flex-wrap items-center gap-3">
        <button
          type="submit"
          name="intent"
          value="upload-cv"
          disabled={busy}
          className={buttonClass({ size: "sm" })}
        >
          <Upload aria-hidden="true" className="size-4" />
          Upload CV
        </button>
        {cv.uploaded ? (
          <button
            type="submit"
            name="intent"
            value="remove-cv"
            disabled={busy}
            className={buttonClass({ variant: "secondary", size: "sm" })}
          >
            Remove CV
          </button>
        ) : null}
        <FormStatus ok={local ? false : result?.ok} message={local ?? result?.message} />
      </div>
    </fetcher.Form>
  );
}

// ---------------------------------------------------------------------------------------------
// Experience and education

type Kind = "experience" | "education";
type EntryData = LoaderData["experiences"][number] | LoaderData["education"][number];

const ENTRY = {
  experience: {
    heading: "Experience",
    add: "Add experience",
    fields: [
      ["title", "Title"],
      ["company", "Company"],
    ],
    current: "Current job",
    empty: "No experience yet: add the first below.",
  },
  education: {
    heading: "Education",
    add: "Add education",
    fields: [
      ["degree", "Degree"],
      ["institution", "Institution"],
    ],
    current: "Currently studying",
    empty: "No education yet: add the first below.",
  },
} as const;

function entryFields(kind: Kind, entry?: EntryData) {
  if (!entry) return { first: "", second: "", from: "", to: "", current: false };
  if (kind === "experience" && "title" in entry) {
    return {
      first: entry.title,
      second: entry.company,
      from: entry.from,
      to: entry.to ?? "",
      current: entry.currentJob,
    };
  }
  const e = entry as LoaderData["education"][number];
  return {
    first: e.degree,
    second: e.institution,
    from: e.from,
    to: e.to ?? "",
    current: e.currentlyStudying,
  };
}

function EntriesSection({ kind, entries }: { kind: Kind; entries: EntryData[] }) {
  const text = ENTRY[kind];
  const deleter = useFetcher({ key: `${kind}-delete` });
  const deleted = useResult(`${kind}-deleted`, deleter);
  return (
    <section aria-labelledby={`${kind}-heading`} className={sectionClass}>
      <h2 id={`${kind}-heading`} className={h2Class}>
        {text.heading}
      </h2>
      <FormStatus ok={deleted?.ok} message={deleted?.message} />
      {entries.length === 0 ? (
        <p className="mt-4 text-slate-600 dark:text-slate-400">{text.empty}</p>
      ) : (
        <ol className="mt-4 space-y-6">
          {entries.map((entry, i) => (
            <li key={entry.id}>
              <EntryForm
                kind={kind}
                entry={entry}
                first={i === 0}
                last={i === entries.length - 1}
              />
            </li>
          ))}
        </ol>
      )}
      <EntryForm kind={kind} />
    </section>
  );
}

function EntryForm({
  kind,
  entry,
  first,
  last,
}: {
  kind: Kind;
  entry?: EntryData;
  first?: boolean;
  last?: boolean;
}) {
  const text = ENTRY[kind];
  const key = entry ? `${kind}-${entry.id}` : `${kind}-new`;
  const fetcher = useFetcher();
  const deleter = useFetcher({ key: `${kind}-delete` });
  const result = useResult(key, fetcher);
  const [confirming, setConfirming] = useState(false);
  const confirmRef = useRef<HTMLButtonElement>(null);
  const stored = entryFields(kind, entry);
  const values = result?.ok === false ? result.values : undefined;
  const errors = result?.errors ?? {};
  const busy = fetcher.state !== "idle";
  const showConfirm = entry && (confirming || result?.confirmDelete);
  const [firstField, secondField] = text.fields;

  // A new entry's form starts empty again once it is added.
  const formRef = useRef<HTMLFormElement>(null);
  useEffect(() => {
    if (!entry && fetcher.state === "idle" && (fetcher.data as FormResult | undefined)?.ok) {
      formRef.current?.reset();
    }
  }, [entry, fetcher.state, fetcher.data]);
  useEffect(() => {
    if (confirming) confirmRef.current?.focus();
  }, [confirming]);

  const name = entry ? `${stored.first} at ${stored.second}` : text.add;
  return (
    <fetcher.Form
      ref={formRef}
      method="post"
      aria-label={name}
      noValidate
      className={`space-y-4 rounded-xl border p-4 ${entry ? "border-slate-200 dark:border-slate-700" : "mt-6 border-dashed border-slate-300 dark:border-slate-600"}`}
    >
      {entry ? (
        <input type="hidden" name="id" value={entry.id} />
      ) : (
        <h3 className="font-semibold text-slate-900 dark:text-white">{text.add}</h3>
      )}
      <div className="grid gap-4 sm:grid-cols-2">
        <TextField
          label={firstField[1]}
          name={firstField[0]}
          defaultValue={values?.[firstField[0]] ?? stored.first}
          error={errors[firstField[0]]}
        />
        <TextField
          label={secondField[1]}
          name={secondField[0]}
          defaultValue={values?.[secondField[0]] ?? stored.second}
          error={errors[secondField[0]]}
        />
        <TextField
          label="From"
          name="from"
          placeholder="2023-03"
          inputMode="numeric"
          defaultValue={values?.from ?? stored.from}
          error={errors.from}
          hint="YYYY-MM (or YYYY, or YYYY-MM-DD)"
        />
        <TextField
          label="To"
          name="to"
          placeholder="2024-06"
          inputMode="numeric"
          defaultValue={values?.to ?? stored.to}
          error={errors.to}
          hint="Leave empty when it is still going"
        />
      </div>
      <CheckboxField
        label={text.current}
        name="current"
        defaultChecked={values ? values.current === "on" : stored.current}
      />
      <div className="flex flex-wrap items-center gap-2">
        {entry ? (
          <>
            <button
              type="submit"
              name="intent"
              value={`save-${kind}`}
              disabled={busy}
              className={buttonClass({ size: "sm" })}
            >
              Save
            </button>
            <button
              type="submit"
              name="intent"
              value={`up-${kind}`}
              disabled={busy || first}
              className={buttonClass({ variant: "secondary", size: "sm" })}
            >
              <ArrowUp aria-hidden="true" className="size-4" />
              Move up
            </button>
            <button
              type="submit"
              name="intent"
              value={`down-${kind}`}
              disabled={busy || last}
              className={buttonClass({ variant: "secondary", size: "sm" })}
            >
              <ArrowDown aria-hidden="true" className="size-4" />
              Move down
            </button>
            <button
              type="submit"
              name="intent"
              value={`ask-${kind}`}
              className={buttonClass({ variant: "danger", size: "sm" })}
              onClick={(event) => {
                // With JavaScript the confirmation shows at once; without, the server shows it.
                event.preventDefault();
                setConfirming(true);
              }}
            >
              <Trash2 aria-hidden="true" className="size-4" />
              Delete
            </button>
          </>
        ) : (
          <button
            type="submit"
            name="intent"
            value={`add-${kind}`}
            disabled={busy}
            className={buttonClass({ size: "sm" })}
          >
            <Plus aria-hidden="true" className="size-4" />
            {text.add}
          </button>
        )}
        <FormStatus ok={result?.ok} message={result?.confirmDelete ? undefined : result?.message} />
      </div>
      {showConfirm ? (
        <div
          role="group"
          aria-label="Confirm delete"
          className="flex flex-wrap items-center gap-2 rounded-lg bg-red-50 p-3 dark:bg-red-950"
        >
          <p className="text-sm text-red-900 dark:text-red-100">
            Delete “{name}”? This cannot be undone.
          </p>
          <button
            ref={confirmRef}
            type="submit"
            name="intent"
            value={`delete-${kind}`}
            className={buttonClass({ variant: "danger", size: "sm" })}
            onClick={(event) => {
              // Without JavaScript this submits the form; with it, one fetcher for the list
              // reports the deletion, since this entry's form goes with it.
              event.preventDefault();
              deleter.submit(
                { intent: `delete-${kind}`, id: String(entry.id) },
                { method: "post" },
              );
              setConfirming(false);
            }}
          >
            Confirm delete
          </button>
          <button
            type="button"
            className={buttonClass({ variant: "secondary", size: "sm" })}
            onClick={() => setConfirming(false)}
          >
            Cancel
          </button>
        </div>
      ) : null}
    </fetcher.Form>
  );
}

// ---------------------------------------------------------------------------------------------
// JSON Resume

function ResumeSection() {
  const fetcher = useFetcher();
  const result = useResult("import", fetcher);
  // Cancel hides this preview; the next import's shows.
  const [dismissed, setDismissed] = useState<FormResult | null>(null);
  const preview = result?.ok && result !== dismissed ? result.preview : undefined;
  const errors = result?.ok === false ? Object.entries(result.errors ?? {}) : [];
  const busy = fetcher.state !== "idle";

  return (
    <section aria-labelledby="resume-heading" className={sectionClass}>
      <h2 id="resume-heading" className={h2Class}>
        JSON Resume
      </h2>
      <p className="mt-2 text-slate-700 dark:text-slate-300">
        The profile, experience and education as a{" "}
        <a href="https://jsonresume.org" className="text-sky-800 underline dark:text-sky-300">
          JSON Resume
        </a>{" "}
        document, the open standard recruiters&apos; tools read. It is public at /resume.json.
      </p>
      <a
        href="/resume.json"
        download="resume.json"
        className={buttonClass({ variant: "secondary", size: "sm", className: "mt-4" })}
      >
        Export JSON Resume
      </a>
      <fetcher.Form
        method="post"
        encType="multipart/form-data"
        aria-label="Import JSON Resume"
        className="mt-6 space-y-3"
      >
        <label
          htmlFor="resume-file"
          className="block text-sm font-medium text-slate-800 dark:text-slate-200"
        >
          JSON Resume file
        </label>
        <input
          id="resume-file"
          type="file"
          name="file"
          accept="application/json,.json"
          className="block text-sm text-slate-800 dark:text-slate-200"
        />
        <div className="flex flex-wrap items-center gap-3">
          <button
            type="submit"
            name="intent"
            value="import-preview"
            disabled={busy}
            className={buttonClass({ size: "sm" })}
          >
            Import JSON Resume
          </button>
          <FormStatus
            ok={result?.ok}
            message={preview ? "Check the changes below, then confirm." : result?.message}
          />
        </div>
        {errors.length > 0 ? (
          <ul
            className="list-disc pl-6 text-sm text-red-800 dark:text-red-300"
            aria-label="Fields to fix"
          >
            {errors.map(([path, message]) => (
              <li key={path}>
                <code>{path}</code>: {message}
              </li>
            ))}
          </ul>
        ) : null}
      </fetcher.Form>
      {preview ? (
        <fetcher.Form method="post" aria-label="Confirm import" className="mt-6 space-y-4">
          <input type="hidden" name="document" value={preview.document} />
          <h3 className="text-lg font-semibold text-slate-900 dark:text-white">
            What the import changes
          </h3>
          {preview.changes.length > 0 ? (
            <table className="w-full text-left text-sm">
              <thead>
                <tr>
                  <th scope="col" className="py-1 pr-4">
                    Field
                  </th>
                  <th scope="col" className="py-1 pr-4">
                    Now
                  </th>
                  <th scope="col" className="py-1">
                    After the import
                  </th>
                </tr>
              </thead>
              <tbody>
                {preview.changes.map((change) => (
                  <tr
                    key={change.field}
                    className="border-t border-slate-200 align-top dark:border-slate-700"
                  >
                    <th scope="row" className="py-1 pr-4">
                      {change.field}
                    </th>
                    <td className="py-1 pr-4 break-words whitespace-pre-wrap">{change.from}</td>
                    <td className="py-1 break-words whitespace-pre-wrap">{change.to}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          ) : (
            <p className="text-sm">The profile's text stays the same.</p>
          )}
          <EntryChanges title="Experience" change={preview.experiences} />
          <EntryChanges title="Education" change={preview.education} />
          {preview.ignored.length > 0 ? (
            <p className="text-sm text-slate-700 dark:text-slate-300">
              Not imported (the site has no place for them): {preview.ignored.join(", ")}.
            </p>
          ) : null}
          <p className="text-sm text-slate-700 dark:text-slate-300">
            The photo and the CV stay as they are.
          </p>
          <div className="flex flex-wrap gap-3">
            <button
              type="submit"
              name="intent"
              value="import-confirm"
              disabled={busy}
              className={buttonClass({ size: "sm" })}
            >
              Confirm import
            </button>
            <button
              type="button"
              className={buttonClass({ variant: "secondary", size: "sm" })}
              onClick={() => setDismissed(result ?? null)}
            >
              Cancel
            </button>
          </div>
        </fetcher.Form>
      ) : null}
    </section>
  );
}

function EntryChanges({
  title,
  change,
}: {
  title: string;
  change: { from: string[]; to: string[] };
}) {
  return (
    <div className="text-sm">
      <h4 className="font-semibold">
        {title}: {change.from.length} entries now, {change.to.length} after the import
      </h4>
      <ul className="mt-1 list-disc pl-6">
        {change.to.map((line, i) => (
          <li key={i}>{line}</li>
        ))}
      </ul>
    </div>
  );
}
