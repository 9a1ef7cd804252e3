import type { Node } from "@tiptap/pm/model";
import { getHTMLFromFragment, type Editor } from "@tiptap/react";

/**
 * TipTap's TrailingNode (in StarterKit) keeps an empty paragraph after a block that ends the
 * document (a heading, list, quote or code block), so a click below it has a line to land in.
 * That paragraph is room to type, not content: the HTML the editor hands to the form would
 * otherwise end in `<p></p>`.
 */

function isEmptyParagraph(node: Node) {
  return node.type.name === "paragraph" && node.content.size === 0;
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
