/** Post rules the browser needs without zod: limits, the editor's texts, emptiness. */

/** Limits on a saved post: title and description in characters, content in UTF-8 bytes. */
export const POST_LIMITS = { title: 300, description: 1000, contentBytes: 1_000_000 } as const;

/** The editor's messages, verbatim from the product (docs/product.md, Texts). */
export const EDITOR_TEXT = {
  empty: "Por favor completa el título y el contenido",
  created: "Post guardado exitosamente!",
  createFailed: "Error al guardar el post. Por favor intenta nuevamente.",
  updated: "Post actualizado exitosamente!",
  updateFailed: "Error al actualizar el post. Por favor intenta nuevamente.",
  loadFailed: "Error loading post",
} as const;

/** The visible text of post HTML: an editor holding only empty paragraphs has none. */
export function textOfHtml(html: string): string {
  return html
    .replace(/<[^>]*>/g, "")
    .replace(/&nbsp;|&#160;|\u00a0/g, " ")
    .trim();
}
