/**
 * The editor's footnotes, math and callouts, written as ../markdown-blocks.ts describes (the
 * markup the sanitizer keeps and the Markdown import makes):
 *
 * - a footnote is an inline node holding its note's text, shown small in brackets where it is
 *   referenced; the reader numbers it and gathers it at the end;
 * - math is an inline or a block node holding its TeX, shown as TeX here; the save renders it
 *   with KaTeX (and refuses TeX KaTeX cannot read, naming it);
 * - a callout wraps blocks, with a type (note, tip, warning) its label shows.
 *
 * Footnotes and math read only their attributes from the HTML they are loaded from, so a stored
 * post's KaTeX rendering is dropped here and made again at the next save.
 */
import { Node } from "@tiptap/core";
import type { Editor } from "@tiptap/react";

import { CALLOUT_LABELS, CALLOUT_TYPES, type CalloutType } from "../blocks-markup";

const PARSE_PRIORITY = 60;

export const Footnote = Node.create({
  name: "footnote",
  group: "inline",
  inline: true,
  atom: true,
  selectable: true,
  addAttributes: () => ({ note: { default: "", rendered: false } }),
  parseHTML: () => [
    {
      tag: "span.footnote",
      priority: PARSE_PRIORITY,
      getAttrs: (element) => ({ note: (element.textContent ?? "").trim() }),
    },
  ],
  renderHTML: ({ node }) => ["span", { class: "footnote" }, node.attrs.note as string],
});

const mathNode = (display: boolean) =>
  Node.create({
    name: display ? "mathBlock" : "mathInline",
    group: display ? "block" : "inline",
    inline: !display,
    atom: true,
    selectable: true,
    addAttributes: () => ({ tex: { default: "", rendered: false } }),
    parseHTML: () => [
      {
        tag: display ? "div.math-display" : "span.math-inline",
        priority: PARSE_PRIORITY,
        getAttrs: (element) => ({ tex: element.getAttribute("data-tex") ?? "" }),
      },
    ],
    renderHTML: ({ node }) => [
      display ? "div" : "span",
      { class: `math math-${display ? "display" : "inline"}`, "data-tex": node.attrs.tex },
      node.attrs.tex as string,
    ],
  });

export const MathInline = mathNode(false);
export const MathBlock = mathNode(true);

const calloutTypeOf = (value: string | null): CalloutType =>
  CALLOUT_TYPES.find((type) => type === value) ?? "note";

export const Callout = Node.create({
  name: "callout",
  group: "block",
  content: "block+",
  defining: true,
  addAttributes: () => ({ type: { default: "note", rendered: false } }),
  parseHTML: () => [
    {
      tag: "div.callout",
      priority: PARSE_PRIORITY,
      getAttrs: (element) => ({ type: calloutTypeOf(element.getAttribute("data-callout")) }),
    },
  ],
  renderHTML: ({ node }) => {
    const type = calloutTypeOf(node.attrs.type as string);
    return [
      "div",
      {
        class: `callout callout-${type}`,
        "data-callout": type,
        "data-label": CALLOUT_LABELS[type],
      },
      0,
    ];
  },
});

export const BLOCK_EXTENSIONS = [Footnote, MathInline, MathBlock, Callout];

/** The selected footnote or math node's name and attributes, if one is selected. */
function selectedAtom(editor: Editor, name: string): Record<string, unknown> | null {
  return editor.isActive(name) ? editor.getAttributes(name) : null;
}

/**
 * Asks for a footnote's note (the selected footnote's, to change it) and puts it at the caret.
 * An empty answer leaves the text as it was.
 */
export function insertFootnote(
  editor: Editor,
  ask: (label: string, value: string) => string | null,
) {
  const current = selectedAtom(editor, "footnote");
  const note = ask("Footnote text", (current?.note as string | undefined) ?? "")?.trim();
  if (!note) return;
  if (current) editor.chain().focus().updateAttributes("footnote", { note }).run();
  else editor.chain().focus().insertContent({ type: "footnote", attrs: { note } }).run();
}

/**
 * Asks for TeX (the selected formula's, to change it) and puts it at the caret: inline math in
 * a line of text, a displayed formula in an empty paragraph.
 */
export function insertMath(editor: Editor, ask: (label: string, value: string) => string | null) {
  const name = editor.isActive("mathBlock") ? "mathBlock" : "mathInline";
  const current = selectedAtom(editor, name);
  const tex = ask("TeX formula", (current?.tex as string | undefined) ?? "")?.trim();
  if (!tex) return;
  if (current) {
    editor.chain().focus().updateAttributes(name, { tex }).run();
    return;
  }
  const { $from, empty } = editor.state.selection;
  const display =
    empty && $from.parent.type.name === "paragraph" && $from.parent.content.size === 0;
  editor
    .chain()
    .focus()
    .insertContent({ type: display ? "mathBlock" : "mathInline", attrs: { tex } })
    .run();
}

/**
 * Wraps the selected blocks in a note; in a callout, turns it to the next type (note, tip,
 * warning), and after a warning back to plain text.
 */
export function toggleCallout(editor: Editor) {
  if (!editor.isActive("callout")) {
    editor.chain().focus().wrapIn("callout", { type: "note" }).run();
    return;
  }
  const type = calloutTypeOf(editor.getAttributes("callout").type as string);
  const next = CALLOUT_TYPES[CALLOUT_TYPES.indexOf(type) + 1];
  if (next) editor.chain().focus().updateAttributes("callout", { type: next }).run();
  else editor.chain().focus().lift("callout").run();
}
