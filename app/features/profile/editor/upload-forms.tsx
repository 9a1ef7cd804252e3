import { Upload } from "lucide-react";
import { useState, type FormEvent, type ReactNode } from "react";
import { useFetcher } from "react-router";

import { UPLOAD_ACCEPT, UPLOAD_LIMITS, uploadTooLargeText } from "~/features/media";
import { PHOTO_SIZE, type sitePhoto } from "~/features/site";
import { formatBytes } from "~/lib/format";
import { FormStatus, labelClass } from "~/ui/fields";

import { EDITOR_ACTIONS } from "./actions";
import { useFormResult } from "./form-result";
import { IntentButton } from "./form-buttons";

/** The photo the site shows, whether one is uploaded, and whether the configuration wins. */
export type EditorPhoto = ReturnType<typeof sitePhoto> & { uploaded: boolean; configured: boolean };
/** The CV the site links to, whether one is uploaded, and whether the configuration wins. */
export type EditorCv = { url: string; uploaded: boolean; configured: boolean };

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

/** A file's form: its field (`children`), Upload, and Remove while one is uploaded. */
function UploadForm({
  kind,
  label,
  noun,
  uploaded,
  children,
}: {
  kind: "photo" | "cv";
  label: string;
  noun: string;
  uploaded: boolean;
  children: ReactNode;
}) {
  const fetcher = useFetcher();
  const result = useFormResult(kind, fetcher);
  const [local, setLocal] = useState<string | null>(null);
  const busy = fetcher.state !== "idle";
  return (
    <fetcher.Form
      method="post"
      action={EDITOR_ACTIONS[kind]}
      encType="multipart/form-data"
      aria-label={label}
      className="space-y-3"
      onSubmit={(event) => {
        setLocal(null);
        checkSize(event, UPLOAD_LIMITS[kind], uploadTooLargeText(kind), setLocal);
      }}
    >
      {children}
      <div className="flex flex-wrap items-center gap-3">
        <IntentButton intent="upload" disabled={busy}>
          <Upload aria-hidden="true" className="size-4" />
          {`Upload ${noun}`}
        </IntentButton>
        {uploaded ? (
          <IntentButton intent="remove" variant="secondary" disabled={busy}>
            {`Remove ${noun}`}
          </IntentButton>
        ) : null}
        <FormStatus ok={local ? false : result?.ok} message={local ?? result?.message} />
      </div>
    </fetcher.Form>
  );
}

/**
 * The file input of an upload form, labelled, with its hint (`children`) tied to it. `spaced`
 * when it stands in a row of its own (beside the photo) rather than in the form's column.
 */
function FileField({
  kind,
  label,
  spaced = false,
  children,
}: {
  kind: "photo" | "cv";
  label: string;
  spaced?: boolean;
  children: ReactNode;
}) {
  const gap = spaced ? "mt-1 " : "";
  const field = (
    <>
      <label htmlFor={`${kind}-file`} className={labelClass}>
        {label}
      </label>
      <input
        id={`${kind}-file`}
        type="file"
        name="file"
        accept={UPLOAD_ACCEPT[kind]}
        aria-describedby={`${kind}-hint`}
        className={`${gap}block text-sm text-slate-800 dark:text-slate-200`}
      />
      <p id={`${kind}-hint`} className={`${gap}text-sm text-slate-600 dark:text-slate-400`}>
        {children}
      </p>
    </>
  );
  return spaced ? <div>{field}</div> : field;
}

export function PhotoForm({ photo }: { photo: EditorPhoto }) {
  return (
    <UploadForm kind="photo" label="Photo" noun="photo" uploaded={photo.uploaded}>
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
        <FileField kind="photo" label="Photo" spaced>
          JPEG, PNG or WebP, at most {formatBytes(UPLOAD_LIMITS.photo)}.
          {photo.configured ? " The site configuration's photoUrl is shown instead." : ""}
        </FileField>
      </div>
    </UploadForm>
  );
}

export function CvForm({ cv }: { cv: EditorCv }) {
  return (
    <UploadForm kind="cv" label="CV" noun="CV" uploaded={cv.uploaded}>
      <FileField kind="cv" label="CV (PDF)">
        PDF, at most {formatBytes(UPLOAD_LIMITS.cv)}.{" "}
        <a href={cv.url} className="text-sky-800 underline dark:text-sky-300">
          {cv.uploaded ? "The uploaded CV" : "The current CV"}
        </a>
        {cv.configured ? ": the site configuration's cvUrl, which wins over an upload." : "."}
      </FileField>
    </UploadForm>
  );
}
