import { TableKit } from "@tiptap/extension-table";
import { Markdown } from "@tiptap/markdown";
import { NodeSelection } from "@tiptap/pm/state";
import type { EditorView } from "@tiptap/pm/view";
import { EditorContent, Extension, useEditor, type Editor } from "@tiptap/react";
import StarterKit from "@tiptap/starter-kit";
import { useEffect, useRef, useState } from "react";

import { UPLOAD_ACCEPT } from "~/features/media";

import { BlockShortcuts } from "./block-shortcuts";
import { AltTextDialog, LinkDialog } from "./editor-dialogs";
import { EditorPlaceholder } from "./editor-placeholder";
import { IMAGE_UPLOAD_TEXT, uploadImage } from "./image-upload";
import { checkLink } from "./links";
import {
  droppedImagesText,
  fitMarkdown,
  htmlIsJustText,
  looksLikeMarkdown,
} from "./markdown-paste";
import { PostImage } from "./post-image";
import { Toolbar } from "./toolbar";
import { contentHtml } from "./trailing-paragraph";

export type RichTextEditorProps = {
  initialHtml: string;
  /** The element that labels the editing area (`Content *`). */
  labelId: string;
  onChange: (html: string, isEmpty: boolean) => void;
};

type Notice = { kind: "status" | "alert"; text: string } | null;

/** Files an event carries, if any (a paste or a drop of files rather than text). */
const filesOf = (list: FileList | null | undefined) => (list ? Array.from(list) : []);

/**
 * TipTap with exactly the formats the sanitizer allows. Loaded lazily, only on the editor routes.
 * History: depth 100, grouping delay 500 ms (docs/product.md#constants); Ctrl+Y redoes, as does Ctrl+Shift+Z.
 * Images arrive by the Image button, paste or drop, are uploaded at once (POST /api/images) and
 * ask for their alt text; Markdown pasted as text arrives formatted.
 */
export default function RichTextEditor({ initialHtml, labelId, onChange }: RichTextEditorProps) {
  const [notice, setNotice] = useState<Notice>(null);
  const [linkOpen, setLinkOpen] = useState(false);
  const [altFor, setAltFor] = useState<number | null>(null);
  const fileInput = useRef<HTMLInputElement>(null);
  // The handlers below are created once with the editor; they reach the latest ones through this.
  const handlers = useRef({ openLink: () => {}, upload: (_files: File[], _at?: number) => {} });

  const editor = useEditor({
    immediatelyRender: false,
    extensions: [
      StarterKit.configure({
        heading: { levels: [1, 2, 3] },
        undoRedo: { depth: 100, newGroupDelay: 500 },
        underline: false,
        link: {
          openOnClick: false,
          autolink: true,
          protocols: [],
          defaultProtocol: "https",
          // The sanitizer keeps http(s) and mailto only: the editor holds no other.
          isAllowedUri: (url) => checkLink(url).ok,
        },
      }),
      TableKit.configure({ table: { resizable: false } }),
      PostImage,
      Markdown,
      BlockShortcuts,
      Extension.create({
        name: "linkShortcut",
        addKeyboardShortcuts: () => ({
          "Mod-k": () => {
            handlers.current.openLink();
            return true;
          },
        }),
      }),
    ],
    content: initialHtml,
    editorProps: {
      attributes: {
        role: "textbox",
        "aria-multiline": "true",
        "aria-labelledby": labelId,
        class:
          "post-editor prose prose-slate max-w-none min-h-[400px] p-4 focus:outline-none dark:prose-invert",
      },
      handlePaste: (view, event) => {
        const files = filesOf(event.clipboardData?.files);
        if (files.length > 0) {
          handlers.current.upload(files);
          return true;
        }
        return pasteMarkdown(view, event);
      },
      handleDrop: (view, event, _slice, moved) => {
        const files = moved ? [] : filesOf(event.dataTransfer?.files);
        if (files.length === 0) return false;
        event.preventDefault();
        const at = view.posAtCoords({ left: event.clientX, top: event.clientY })?.pos;
        handlers.current.upload(files, at);
        return true;
      },
    },
    // Without the trailing empty paragraph TipTap keeps for typing (./trailing-paragraph.ts).
    onUpdate: ({ editor }) => onChange(contentHtml(editor), editor.getText().trim() === ""),
  });

  /** Markdown pasted as text, formatted; false leaves the paste to TipTap. */
  function pasteMarkdown(view: EditorView, event: ClipboardEvent): boolean {
    const text = event.clipboardData?.getData("text/plain") ?? "";
    const html = event.clipboardData?.getData("text/html") ?? "";
    if (!editor || editor.isActive("codeBlock") || !looksLikeMarkdown(text)) return false;
    if (html && !htmlIsJustText(html)) return false;
    const { content, droppedImages } = fitMarkdown(editor.markdown!.parse(text));
    if (content.length === 0) return false;
    editor.chain().focus().insertContent(content).run();
    setNotice(droppedImages > 0 ? { kind: "alert", text: droppedImagesText(droppedImages) } : null);
    void view;
    return true;
  }

  useEffect(() => {
    handlers.current.openLink = () => setLinkOpen(true);
    handlers.current.upload = (files, at) => {
      if (!editor) return;
      void (async () => {
        setNotice({ kind: "status", text: IMAGE_UPLOAD_TEXT.uploading });
        let position = at;
        for (const file of files) {
          const result = await uploadImage(file);
          if (!result.ok) {
            setNotice({ kind: "alert", text: result.error });
            return;
          }
          const { src, srcset, width, height } = result.image;
          const attrs = { src, srcset, width, height, alt: "" };
          const chain = editor.chain().focus();
          if (position === undefined) chain.insertContent({ type: "image", attrs });
          else chain.insertContentAt(position, { type: "image", attrs });
          chain.run();
          // The image just inserted is the selected node (or ends just before the caret).
          const { selection } = editor.state;
          const imagePos =
            selection instanceof NodeSelection && selection.node.type.name === "image"
              ? selection.from
              : findImageBefore(editor, selection.from, src);
          position = undefined;
          if (imagePos !== null) setAltFor(imagePos);
        }
        setNotice(null);
      })();
    };
  });

  const selectedImage = (): number | null => {
    if (!editor) return null;
    const { selection } = editor.state;
    return selection instanceof NodeSelection && selection.node.type.name === "image"
      ? selection.from
      : null;
  };

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
          altText: () => setAltFor(selectedImage()),
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
      {notice ? (
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
      ) : null}
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
            const chain = editor.chain().focus();
            if (editor.state.selection.empty && !editor.isActive("link")) {
              chain.insertContent({
                type: "text",
                text: href,
                marks: [{ type: "link", attrs: { href } }],
              });
            } else {
              chain.extendMarkRange("link").setLink({ href });
            }
            chain.run();
          }}
          onRemove={() => {
            setLinkOpen(false);
            editor.chain().focus().extendMarkRange("link").unsetLink().run();
          }}
        />
      ) : null}
      {altFor !== null ? (
        <AltTextDialog
          initialAlt={currentAlt}
          onClose={() => setAltFor(null)}
          onSave={(alt) => {
            const at = altFor;
            setAltFor(null);
            if (at === null || editor.state.doc.nodeAt(at)?.type.name !== "image") return;
            editor.chain().focus().setNodeSelection(at).updateAttributes("image", { alt }).run();
          }}
        />
      ) : null}
    </div>
  );
}

/** Where the image with `src` that ends at or before `from` starts, or null. */
function findImageBefore(editor: Editor, from: number, src: string): number | null {
  let found: number | null = null;
  editor.state.doc.descendants((node, pos) => {
    if (pos < from && node.type.name === "image" && node.attrs.src === src) found = pos;
  });
  return found;
}
