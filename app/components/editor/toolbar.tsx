import { useEditorState, type Editor } from "@tiptap/react";
import {
  Bold,
  Code,
  Heading1,
  Heading2,
  Heading3,
  Italic,
  List,
  ListOrdered,
  Quote,
  Redo2,
  Strikethrough,
  Undo2,
  type LucideIcon,
} from "lucide-react";

import { selectToolbarState, type ToolbarState } from "./toolbar-state";

type Format = {
  label: string;
  icon: LucideIcon;
  active: keyof ToolbarState;
  run: (editor: Editor) => void;
};

// Every command runs through editor.chain().focus()…run(), so the caret stays in the text.
const groups: Format[][] = [
  [
    { label: "Bold", icon: Bold, active: "bold", run: (e) => e.chain().focus().toggleBold().run() },
    {
      label: "Italic",
      icon: Italic,
      active: "italic",
      run: (e) => e.chain().focus().toggleItalic().run(),
    },
    {
      label: "Strikethrough",
      icon: Strikethrough,
      active: "strike",
      run: (e) => e.chain().focus().toggleStrike().run(),
    },
  ],
  [
    {
      label: "Heading 1",
      icon: Heading1,
      active: "heading1",
      run: (e) => e.chain().focus().toggleHeading({ level: 1 }).run(),
    },
    {
      label: "Heading 2",
      icon: Heading2,
      active: "heading2",
      run: (e) => e.chain().focus().toggleHeading({ level: 2 }).run(),
    },
    {
      label: "Heading 3",
      icon: Heading3,
      active: "heading3",
      run: (e) => e.chain().focus().toggleHeading({ level: 3 }).run(),
    },
  ],
  [
    {
      label: "Bullet list",
      icon: List,
      active: "bulletList",
      run: (e) => e.chain().focus().toggleBulletList().run(),
    },
    {
      label: "Numbered list",
      icon: ListOrdered,
      active: "orderedList",
      run: (e) => e.chain().focus().toggleOrderedList().run(),
    },
    {
      label: "Quote",
      icon: Quote,
      active: "blockquote",
      run: (e) => e.chain().focus().toggleBlockquote().run(),
    },
    {
      label: "Code block",
      icon: Code,
      active: "codeBlock",
      run: (e) => e.chain().focus().toggleCodeBlock().run(),
    },
  ],
];

const button =
  "inline-flex size-9 items-center justify-center rounded-md text-slate-700 hover:bg-slate-200 disabled:opacity-40 aria-pressed:bg-sky-700 aria-pressed:text-white dark:text-slate-200 dark:hover:bg-slate-700 dark:aria-pressed:bg-sky-400 dark:aria-pressed:text-slate-950";

/** Formatting buttons: real buttons, each named for screen readers, pressed when active. */
export function Toolbar({ editor }: { editor: Editor }) {
  const state = useEditorState({ editor, selector: selectToolbarState });
  return (
    <div
      role="toolbar"
      aria-label="Formatting"
      className="flex flex-wrap items-center gap-1 border-b border-slate-300 bg-slate-50 p-2 dark:border-slate-700 dark:bg-slate-800"
    >
      {groups.map((group, index) => (
        <div
          key={index}
          className="flex items-center gap-1 border-r border-slate-300 pr-1 dark:border-slate-600"
        >
          {group.map(({ label, icon: Icon, active, run }) => (
            <button
              key={label}
              type="button"
              aria-label={label}
              title={label}
              aria-pressed={state[active] === true}
              onClick={() => run(editor)}
              className={button}
            >
              <Icon aria-hidden="true" className="size-4" />
            </button>
          ))}
        </div>
      ))}
      <button
        type="button"
        aria-label="Undo"
        title="Undo (Ctrl+Z)"
        disabled={!state.canUndo}
        onClick={() => editor.chain().focus().undo().run()}
        className={button}
      >
        <Undo2 aria-hidden="true" className="size-4" />
      </button>
      <button
        type="button"
        aria-label="Redo"
        title="Redo (Ctrl+Y)"
        disabled={!state.canRedo}
        onClick={() => editor.chain().focus().redo().run()}
        className={button}
      >
        <Redo2 aria-hidden="true" className="size-4" />
      </button>
    </div>
  );
}
