import { useEditorState, type ChainedCommands, type Editor } from "@tiptap/react";
import {
  Bold,
  Code,
  Heading1,
  Heading2,
  Heading3,
  ImagePlus,
  Info,
  Italic,
  Link2,
  List,
  ListOrdered,
  Minus,
  Quote,
  Redo2,
  Sigma,
  SquareCode,
  Strikethrough,
  Superscript,
  Table,
  Undo2,
  type LucideIcon,
} from "lucide-react";
import { useId, type MouseEvent } from "react";

import { CODE_LANGUAGES, PLAIN_TEXT } from "../code-languages";

import { insertFootnote, insertMath, toggleCallout } from "./blocks";
import { selectToolbarState, type ToolbarState } from "./toolbar-state";
import { toggleBlock } from "./trailing-paragraph";

/** What the toolbar asks its editor's owner to do: open a dialog or the file picker. */
export type ToolbarActions = { link: () => void; image: () => void; altText: () => void };

type Format = {
  label: string;
  /** The keyboard shortcut, in the button's tooltip. */
  keys?: string;
  icon: LucideIcon;
  /** The state that presses the button; none for an action (insert a table, a rule). */
  active?: keyof ToolbarState;
  run: (editor: Editor, actions: ToolbarActions) => void;
};

// Every command runs through editor.chain().focus()…run(), so the caret stays in the text.
// Block formats first leave the trailing empty paragraph out of the selection, as the pressed
// state does (./trailing-paragraph.ts), so a second click turns the same text back.
const block =
  (toggle: (chain: ChainedCommands) => ChainedCommands) =>
  (editor: Editor): void => {
    toggleBlock(editor, toggle);
  };

/** A footnote's text or a formula's TeX, asked for in the browser's own dialog. */
const ask = (label: string, value: string) => window.prompt(label, value);

const groups: Format[][] = [
  [
    {
      label: "Bold",
      keys: "Ctrl+B",
      icon: Bold,
      active: "bold",
      run: (e) => e.chain().focus().toggleBold().run(),
    },
    {
      label: "Italic",
      keys: "Ctrl+I",
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
    {
      label: "Inline code",
      keys: "Ctrl+E",
      icon: Code,
      active: "code",
      run: (e) => e.chain().focus().toggleCode().run(),
    },
    { label: "Link", keys: "Ctrl+K", icon: Link2, active: "link", run: (_e, a) => a.link() },
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
      icon: SquareCode,
      active: "codeBlock",
      run: block((c) => c.toggleCodeBlock()),
    },
  ],
  [
    { label: "Image", icon: ImagePlus, run: (_e, a) => a.image() },
    {
      label: "Table",
      icon: Table,
      run: (e) => e.chain().focus().insertTable({ rows: 3, cols: 3, withHeaderRow: true }).run(),
    },
    {
      label: "Horizontal rule",
      icon: Minus,
      run: (e) => e.chain().focus().setHorizontalRule().run(),
    },
  ],
  [
    { label: "Footnote", icon: Superscript, run: (e) => insertFootnote(e, ask) },
    { label: "Math", icon: Sigma, run: (e) => insertMath(e, ask) },
    {
      label: "Callout (note, tip, warning)",
      icon: Info,
      active: "callout",
      run: (e) => toggleCallout(e),
    },
  ],
];

const history: {
  label: string;
  keys: string;
  icon: LucideIcon;
  enabled: "canUndo" | "canRedo";
  run: (editor: Editor) => void;
}[] = [
  {
    label: "Undo",
    keys: "Ctrl+Z",
    icon: Undo2,
    enabled: "canUndo",
    run: (e) => e.chain().focus().undo().run(),
  },
  {
    label: "Redo",
    keys: "Ctrl+Y",
    icon: Redo2,
    enabled: "canRedo",
    run: (e) => e.chain().focus().redo().run(),
  },
];

/** The table commands, shown while the caret is in a table. */
const tableCommands: { label: string; run: (chain: ChainedCommands) => ChainedCommands }[] = [
  { label: "Add row", run: (c) => c.addRowAfter() },
  { label: "Delete row", run: (c) => c.deleteRow() },
  { label: "Add column", run: (c) => c.addColumnAfter() },
  { label: "Delete column", run: (c) => c.deleteColumn() },
  { label: "Delete table", run: (c) => c.deleteTable() },
];

const button =
  "inline-flex size-9 items-center justify-center rounded-md text-slate-700 hover:bg-slate-200 disabled:opacity-40 aria-pressed:bg-sky-700 aria-pressed:text-white dark:text-slate-200 dark:hover:bg-slate-700 dark:aria-pressed:bg-sky-400 dark:aria-pressed:text-slate-950";
const textButton =
  "inline-flex h-8 items-center rounded-md border border-slate-300 px-2 text-sm text-slate-800 hover:bg-slate-200 aria-pressed:bg-sky-700 aria-pressed:text-white dark:border-slate-600 dark:text-slate-100 dark:hover:bg-slate-700 dark:aria-pressed:bg-sky-400 dark:aria-pressed:text-slate-950";

/**
 * A pointer press on a command button leaves the focus (and the selection) in the text: the
 * command applies to what is selected, and the text keeps taking keys at once instead of one
 * animation frame later, when TipTap would give it the focus back. Keyboard users still Tab to
 * the buttons.
 */
const keepTextFocus = (event: MouseEvent) => event.preventDefault();

/** Formatting buttons: real buttons, each named for screen readers, pressed when active. */
export function Toolbar({ editor, actions }: { editor: Editor; actions: ToolbarActions }) {
  const state = useEditorState({ editor, selector: selectToolbarState });
  return (
    <div className="border-b border-slate-300 bg-slate-50 dark:border-slate-700 dark:bg-slate-800">
      <div role="toolbar" aria-label="Formatting" className="flex flex-wrap items-center gap-1 p-2">
        {groups.map((group, index) => (
          <div
            key={index}
            className="flex items-center gap-1 border-r border-slate-300 pr-1 dark:border-slate-600"
          >
            {group.map(({ label, keys, icon: Icon, active, run }) => (
              <button
                key={label}
                type="button"
                aria-label={label}
                title={keys ? `${label} (${keys})` : label}
                aria-pressed={active ? state[active] === true : undefined}
                onMouseDown={keepTextFocus}
                onClick={() => run(editor, actions)}
                className={button}
              >
                <Icon aria-hidden="true" className="size-4" />
              </button>
            ))}
          </div>
        ))}
        {history.map(({ label, keys, icon: Icon, enabled, run }) => (
          <button
            key={label}
            type="button"
            aria-label={label}
            title={`${label} (${keys})`}
            disabled={!state[enabled]}
            onMouseDown={keepTextFocus}
            onClick={() => run(editor)}
            className={button}
          >
            <Icon aria-hidden="true" className="size-4" />
          </button>
        ))}
      </div>
      {state.codeBlock || state.table || state.image ? (
        <SelectionToolbar editor={editor} state={state} actions={actions} />
      ) : null}
    </div>
  );
}

/**
 * The commands of what the caret is in: a code block's language, a table's rows and columns, an
 * image's alt text.
 */
function SelectionToolbar({
  editor,
  state,
  actions,
}: {
  editor: Editor;
  state: ToolbarState;
  actions: ToolbarActions;
}) {
  const languageId = useId();
  return (
    <div
      role="toolbar"
      aria-label={state.table ? "Table" : state.image ? "Image" : "Code block"}
      className="flex flex-wrap items-center gap-2 border-t border-slate-300 px-3 py-2 dark:border-slate-700"
    >
      {state.codeBlock ? (
        <>
          <label htmlFor={languageId} className="text-sm font-medium">
            Language
          </label>
          <select
            id={languageId}
            value={state.codeLanguage ?? PLAIN_TEXT}
            onChange={(event) =>
              editor
                .chain()
                .focus()
                .updateAttributes("codeBlock", { language: event.target.value })
                .run()
            }
            className="h-8 rounded-md border border-slate-300 bg-white px-2 text-sm dark:border-slate-600 dark:bg-slate-900"
          >
            {CODE_LANGUAGES.map(({ id, label }) => (
              <option key={id} value={id}>
                {label}
              </option>
            ))}
          </select>
        </>
      ) : null}
      {state.table ? (
        <>
          {tableCommands.map(({ label, run }) => (
            <button
              key={label}
              type="button"
              className={textButton}
              onMouseDown={keepTextFocus}
              onClick={() => run(editor.chain().focus()).run()}
            >
              {label}
            </button>
          ))}
          <button
            type="button"
            className={textButton}
            aria-pressed={state.headerCell}
            onMouseDown={keepTextFocus}
            onClick={() => editor.chain().focus().toggleHeaderRow().run()}
          >
            Header row
          </button>
        </>
      ) : null}
      {state.image ? (
        <button type="button" className={textButton} onClick={actions.altText}>
          Alt text
        </button>
      ) : null}
    </div>
  );
}
