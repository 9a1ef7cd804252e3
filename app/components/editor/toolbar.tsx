import { useEditorState, type ChainedCommands, type Editor } from "@tiptap/react";
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
import { toggleBlock } from "./trailing-paragraph";

type Format = {
  label: string;
  icon: LucideIcon;
  active: keyof ToolbarState;
  run: (editor: Editor) => void;
};

// Every command runs through editor.chain().focus()…run(), so the caret stays in the text.
// Block formats first leave the trailing empty paragraph out of the selection, as the pressed
// state does (./trailing-paragraph.ts), so a second click turns the same text back.
const block =
  (toggle: (chain: ChainedCommands) => ChainedCommands) =>
  (editor: Editor): void => {
    toggleBlock(editor, toggle);
  };

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
      run: block((c) => c.toggleHeading({ level: 1 })),
    },
    {
      label: "Heading 2",
      icon: Heading2,
      active: "heading2",
      run: block((c) => c.toggleHeading({ level: 2 })),
    },
    {
      label: "Heading 3",
      icon: Heading3,
      active: "heading3",
      run: block((c) => c.toggleHeading({ level: 3 })),
    },
  ],
  [
    {
      label: "Bullet list",
      icon: List,
      active: "bulletList",
      run: block((c) => c.toggleBulletList()),
    },
    {
      label: "Numbered list",
      icon: ListOrdered,
      active: "orderedList",
      run: block((c) => c.toggleOrderedList()),
    },
    {
      label: "Quote",
      icon: Quote,
      active: "blockquote",
      run: block((c) => c.toggleBlockquote()),
    },
    {
      label: "Code block",
      icon: Code,
      active: "codeBlock",
      run: block((c) => c.toggleCodeBlock()),
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
