import { TableKit } from "@tiptap/extension-table";
import { Markdown } from "@tiptap/markdown";
import { Extension, generateJSON, useEditor } from "@tiptap/react";
import StarterKit from "@tiptap/starter-kit";
import type { RefObject } from "react";

import { BlockShortcuts } from "./block-shortcuts";
import { hasMarkdownBlocks, markdownToHtml } from "../markdown-blocks";
import { BLOCK_EXTENSIONS } from "./blocks";
import type { Notice } from "./editor-commands";
import { checkLink } from "./links";
import {
  droppedImagesText,
  fitMarkdown,
  htmlIsJustText,
  looksLikeMarkdown,
} from "./markdown-paste";
import { PostImage } from "./post-image";
import { contentHtml } from "./trailing-paragraph";

/**
 * What the editor asks of the component around it. TipTap keeps the handlers it is created with,
 * so it reaches the latest ones through a ref.
 */
export type EditorHandlers = {
  openLink: () => void;
  upload: (files: File[], at?: number) => void;
};

/** Files an event carries, if any (a paste or a drop of files rather than text). */
export const filesOf = (list: FileList | null | undefined) => (list ? Array.from(list) : []);

/**
 * Exactly the formats the sanitizer allows. History: depth 100, grouping delay 500 ms
 * (docs/product.md#constants); Ctrl+Y redoes, as does Ctrl+Shift+Z; Ctrl+K opens the link dialog.
 */
function postExtensions(handlers: RefObject<EditorHandlers>) {
  return [
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
    ...BLOCK_EXTENSIONS,
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
  ];
}

/**
 * The post's TipTap editor, created in the browser only (null until then). Files pasted or
 * dropped go to `handlers.upload`; Markdown pasted as text arrives formatted, and `onNotice`
 * says when its images were left out. `onChange` hears the HTML and whether it holds no text.
 */
export function usePostTextEditor({
  initialHtml,
  labelId,
  handlers,
  onChange,
  onNotice,
}: {
  initialHtml: string;
  labelId: string;
  handlers: RefObject<EditorHandlers>;
  onChange: (html: string, isEmpty: boolean) => void;
  onNotice: (notice: Notice) => void;
}) {
  const editor = useEditor({
    immediatelyRender: false,
    extensions: postExtensions(handlers),
    content: initialHtml,
    editorProps: {
      attributes: {
        role: "textbox",
        "aria-multiline": "true",
        "aria-labelledby": labelId,
        class:
          "post-editor prose prose-slate max-w-none min-h-[400px] p-4 focus:outline-none dark:prose-invert",
      },
      handlePaste: (_view, event) => {
        const files = filesOf(event.clipboardData?.files);
        if (files.length > 0) {
          handlers.current.upload(files);
          return true;
        }
        return pasteMarkdown(event);
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
  function pasteMarkdown(event: ClipboardEvent): boolean {
    const text = event.clipboardData?.getData("text/plain") ?? "";
    const html = event.clipboardData?.getData("text/html") ?? "";
    const blocks = hasMarkdownBlocks(text);
    if (!editor || editor.isActive("codeBlock") || !(blocks || looksLikeMarkdown(text)))
      return false;
    if (html && !htmlIsJustText(html)) return false;
    // Footnotes, math and GitHub's alerts are read as the Markdown import reads them.
    const doc = blocks
      ? generateJSON(markdownToHtml(text), editor.extensionManager.extensions)
      : editor.markdown!.parse(text);
    const { content, droppedImages } = fitMarkdown(doc);
    if (content.length === 0) return false;
    editor.chain().focus().insertContent(content).run();
    onNotice(droppedImages > 0 ? { kind: "alert", text: droppedImagesText(droppedImages) } : null);
    return true;
  }

  return editor;
}
