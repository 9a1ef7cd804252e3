import { EditorContent } from "@tiptap/react";
import { useEffect, useRef, useState } from "react";

import { UPLOAD_ACCEPT } from "~/features/media";

import {
  applyLink,
  insertUploads,
  removeLink,
  selectedImage,
  setImageAlt,
  type Notice,
} from "./editor-commands";
import { AltTextDialog, LinkDialog } from "./editor-dialogs";
import { EditorPlaceholder } from "./editor-placeholder";
import { filesOf, usePostTextEditor, type EditorHandlers } from "./text-editor";
import { Toolbar } from "./toolbar";

export type RichTextEditorProps = {
  initialHtml: string;
  /** The element that labels the editing area (`Content *`). */
  labelId: string;
  onChange: (html: string, isEmpty: boolean) => void;
};

/**
 * TipTap with its toolbar, notices and dialogs. Loaded lazily, only on the editor routes.
 * Images arrive by the Image button, paste or drop, are uploaded at once (POST /api/images) and
 * ask for their alt text; Markdown pasted as text arrives formatted.
 */
export default function RichTextEditor({ initialHtml, labelId, onChange }: RichTextEditorProps) {
  const [notice, setNotice] = useState<Notice>(null);
  const [linkOpen, setLinkOpen] = useState(false);
  const [altFor, setAltFor] = useState<number | null>(null);
  const fileInput = useRef<HTMLInputElement>(null);
  const handlers = useRef<EditorHandlers>({ openLink: () => {}, upload: () => {} });
  const editor = usePostTextEditor({
    initialHtml,
    labelId,
    handlers,
    onChange,
    onNotice: setNotice,
  });

  useEffect(() => {
    handlers.current.openLink = () => setLinkOpen(true);
    handlers.current.upload = (files, at) => {
      if (!editor) return;
      void insertUploads(editor, files, at, { notice: setNotice, inserted: setAltFor });
    };
  });

  // Until TipTap mounts in the browser (immediatelyRender: false), the same box keeps its place.
  if (!editor) return <EditorPlaceholder />;
  const currentAlt =
    altFor !== null ? ((editor.state.doc.nodeAt(altFor)?.attrs.alt as string) ?? "") : "";
  return (
    <div className="overflow-hidden rounded-lg border border-slate-300 bg-white focus-within:ring-2 focus-within:ring-sky-500 dark:border-slate-700 dark:bg-slate-900">
      <Toolbar
        editor={editor}
        actions={{
          link: () => setLinkOpen(true),
          image: () => fileInput.current?.click(),
          altText: () => setAltFor(selectedImage(editor)),
        }}
      />
      <input
        ref={fileInput}
        type="file"
        accept={UPLOAD_ACCEPT.image}
        multiple
        hidden
        tabIndex={-1}
        aria-hidden="true"
        onChange={(event) => {
          const files = filesOf(event.target.files);
          event.target.value = "";
          if (files.length > 0) handlers.current.upload(files);
        }}
      />
      {notice ? <EditorNotice notice={notice} /> : null}
      <EditorContent editor={editor} />
      {linkOpen ? (
        <LinkDialog
          initialHref={(editor.getAttributes("link").href as string) ?? null}
          onClose={() => {
            setLinkOpen(false);
            editor.commands.focus();
          }}
          onApply={(href) => {
            setLinkOpen(false);
            applyLink(editor, href);
          }}
          onRemove={() => {
            setLinkOpen(false);
            removeLink(editor);
          }}
        />
      ) : null}
      {altFor !== null ? (
        <AltTextDialog
          initialAlt={currentAlt}
          onClose={() => setAltFor(null)}
          onSave={(alt) => {
            setAltFor(null);
            setImageAlt(editor, altFor, alt);
          }}
        />
      ) : null}
    </div>
  );
}

/** An upload's progress (a status) or a problem with it or a paste (an alert). */
function EditorNotice({ notice }: { notice: NonNullable<Notice> }) {
  return (
    <p
      role={notice.kind}
      className={`border-b px-4 py-2 text-sm ${
        notice.kind === "alert"
          ? "border-red-300 bg-red-50 text-red-900 dark:border-red-800 dark:bg-red-950 dark:text-red-100"
          : "border-slate-300 bg-slate-50 text-slate-700 dark:border-slate-700 dark:bg-slate-800 dark:text-slate-200"
      }`}
    >
      {notice.text}
    </p>
  );
}
