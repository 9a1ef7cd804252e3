import type { Node } from "@tiptap/pm/model";
import { TextSelection, type Selection } from "@tiptap/pm/state";
import {
  getHTMLFromFragment,
  type ChainedCommands,
  type CommandProps,
  type Editor,
} from "@tiptap/react";

/**
 * TipTap's TrailingNode (in StarterKit) keeps an empty paragraph after a block that ends the
 * document (a heading, list, quote or code block), so a click below it has a line to land in.
 * That paragraph is room to type, not content:
 * - a selection that runs into it (Ctrl+A selects the whole document, and keeps doing so as the
 *   paragraph is added after the first format) would make the block formats judge and change
 *   it too: "Heading 1" would never show as pressed, and a second click would add an empty
 *   heading instead of turning the text back into a paragraph;
 * - the HTML the editor hands to the form would end in `<p></p>`.
 */

function isEmptyParagraph(node: Node) {
  return node.type.name === "paragraph" && node.content.size === 0;
}

/**
 * The selection without the document's trailing empty paragraph, when it runs into that
 * paragraph from the text above (otherwise the selection itself): the caret, or a selection
 * inside that paragraph, stays as it is.
 */
export function withoutTrailingParagraph(doc: Node, selection: Selection): Selection {
  const last = doc.lastChild;
  if (!last || !isEmptyParagraph(last)) return selection;
  const start = doc.content.size - last.nodeSize;
  if (selection.from >= start || selection.to <= start) return selection;
  // From the first text position at or after `from` to the last one before the paragraph.
  return TextSelection.between(doc.resolve(selection.from), doc.resolve(start), -1);
}

/** A chain step: narrows the selection as above, so the commands after it skip the paragraph. */
export function skipTrailingParagraph({ tr }: CommandProps): boolean {
  const selection = withoutTrailingParagraph(tr.doc, tr.selection);
  if (selection !== tr.selection) tr.setSelection(selection);
  return true;
}

/**
 * Runs a block format's toggle (heading, list, quote, code block) the way the toolbar and the
 * keyboard shortcuts both do: focused, on the selection less the trailing paragraph, in one
 * transaction (one undo step).
 */
export function toggleBlock(
  editor: Editor,
  toggle: (chain: ChainedCommands) => ChainedCommands,
): boolean {
  return toggle(editor.chain().focus().command(skipTrailingParagraph)).run();
}

/** The editor's HTML without empty paragraphs at the end: what the form shows and saves. */
export function contentHtml(editor: Editor): string {
  const { doc } = editor.state;
  let end = doc.content.size;
  for (let index = doc.childCount - 1; index >= 0; index--) {
    const child = doc.child(index);
    if (!isEmptyParagraph(child)) break;
    end -= child.nodeSize;
  }
  return end === doc.content.size
    ? editor.getHTML()
    : getHTMLFromFragment(doc.content.cut(0, end), editor.schema);
}
