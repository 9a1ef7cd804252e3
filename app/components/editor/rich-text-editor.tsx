import { EditorContent, useEditor } from "@tiptap/react";
import StarterKit from "@tiptap/starter-kit";

import { BlockShortcuts } from "./block-shortcuts";
import { EditorPlaceholder } from "./editor-placeholder";
import { Toolbar } from "./toolbar";
import { contentHtml } from "./trailing-paragraph";

export type RichTextEditorProps = {
  initialHtml: string;
  /** The element that labels the editing area (`Content *`). */
  labelId: string;
  onChange: (html: string, isEmpty: boolean) => void;
};

/**
 * TipTap with exactly the formats the sanitizer allows. Loaded lazily, only on the editor routes.
 * History: depth 100, grouping delay 500 ms (docs/product.md#constants); Ctrl+Y redoes, as does Ctrl+Shift+Z.
 */
export default function RichTextEditor({ initialHtml, labelId, onChange }: RichTextEditorProps) {
  const editor = useEditor({
    immediatelyRender: false,
    extensions: [
      StarterKit.configure({
        heading: { levels: [1, 2, 3] },
        undoRedo: { depth: 100, newGroupDelay: 500 },
        horizontalRule: false,
        underline: false,
        link: { openOnClick: false, protocols: [], defaultProtocol: "https" },
      }),
      BlockShortcuts,
    ],
    content: initialHtml,
    editorProps: {
      attributes: {
        role: "textbox",
        "aria-multiline": "true",
        "aria-labelledby": labelId,
        class:
          "prose prose-slate max-w-none min-h-[400px] p-4 focus:outline-none dark:prose-invert",
      },
    },
    // Without the trailing empty paragraph TipTap keeps for typing (./trailing-paragraph.ts).
    onUpdate: ({ editor }) => onChange(contentHtml(editor), editor.getText().trim() === ""),
  });

  // Until TipTap mounts in the browser (immediatelyRender: false), the same box keeps its place.
  if (!editor) return <EditorPlaceholder />;
  return (
    <div className="overflow-hidden rounded-lg border border-slate-300 bg-white focus-within:ring-2 focus-within:ring-sky-500 dark:border-slate-700 dark:bg-slate-900">
      <Toolbar editor={editor} />
      <EditorContent editor={editor} />
    </div>
  );
}
