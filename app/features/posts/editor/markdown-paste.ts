import type { JSONContent } from "@tiptap/react";

import { codeLanguageOf, PLAIN_TEXT } from "../code-languages";
import { isMediaImageSrc } from "~/features/media";

/**
 * Lines that only Markdown writes: headings, fences, lists, quotes, tables, rules, links and
 * images, emphasis. Two such lines (or one fence) make pasted text Markdown; prose with a stray
 * asterisk stays prose.
 */
const MARKDOWN_LINE = [
  /^#{1,6}\s+\S/,
  /^\s*(?:[-*+]|\d+[.)])\s+\S/,
  /^>\s?\S/,
  /^\s*\|.*\|\s*$/,
  /^\s*(?:-{3,}|\*{3,}|_{3,})\s*$/,
  /!?\[[^\]]*\]\([^)\s]+\)/,
  /(?:\*\*|__)\S.*?\S(?:\*\*|__)/,
  /`[^`\s][^`]*`/,
];
const FENCE = /^\s*(?:```|~~~)/m;

export function looksLikeMarkdown(text: string): boolean {
  if (FENCE.test(text)) return true;
  const lines = text.split("\n").filter((line) => MARKDOWN_LINE.some((rule) => rule.test(line)));
  return lines.length >= 2;
}

/**
 * Whether a paste with both HTML and text should be read as Markdown: the HTML holds no structure
 * of its own (a code editor's or a terminal's coloured plain text), while the text is Markdown.
 */
export function htmlIsJustText(html: string): boolean {
  return !/<(?:p|h[1-6]|li|table|blockquote|pre)\b/i.test(html) || /white-space:\s*pre/i.test(html);
}

/**
 * The editor's document for parsed Markdown, made to fit the post: fence names become the
 * languages the highlighter knows (`ts` → TypeScript; an unknown one → plain text) and images by
 * URL are left out (a post shows only uploads). Returns how many images were left out.
 */
export function fitMarkdown(doc: JSONContent): { content: JSONContent[]; droppedImages: number } {
  let droppedImages = 0;
  const fit = (node: JSONContent): JSONContent | null => {
    if (node.type === "image") {
      const src = typeof node.attrs?.src === "string" ? node.attrs.src : "";
      if (!isMediaImageSrc(src)) {
        droppedImages += 1;
        return null;
      }
    }
    const next: JSONContent = { ...node };
    if (node.type === "codeBlock") {
      const named = typeof node.attrs?.language === "string" ? node.attrs.language : null;
      next.attrs = { ...node.attrs, language: codeLanguageOf(named) ?? PLAIN_TEXT };
    }
    if (node.content) {
      next.content = node.content.map(fit).filter((child): child is JSONContent => child !== null);
      // A paragraph that held only a dropped image goes too.
      if (next.content.length === 0 && node.content.length > 0 && node.type === "paragraph")
        return null;
    }
    return next;
  };
  const content = (doc.content ?? []).map(fit).filter((node): node is JSONContent => node !== null);
  return { content, droppedImages };
}

export const droppedImagesText = (count: number) =>
  `${count === 1 ? "An image" : `${count} images`} by URL ${count === 1 ? "was" : "were"} not added: a post shows only images uploaded here. Download ${count === 1 ? "it" : "them"}, then use Image.`;
