/** Post rules the browser needs without zod: limits, the editor's texts, emptiness. */

/** Limits on a saved post (docs/product.md#limits). */
export const POST_LIMITS = { title: 300, description: 1000, contentBytes: 1_000_000 } as const;

/**
 * The largest post request the server reads (the post API's JSON), for a content limit:
 * escaping can more than double the content.
 */
export const postBodyLimit = (contentBytes: number) => 3 * contentBytes;
export const POST_BODY_LIMIT = postBodyLimit(POST_LIMITS.contentBytes);

/** A reader's pace for the reading time under a post's date (a common adult average). */
export const READING_WORDS_PER_MINUTE = 230;

/** "4 min read". */
export const readingTimeText = (minutes: number) => `${minutes} min read`;

/** The editor's messages, verbatim from the original (docs/product.md#texts). */
export const EDITOR_TEXT = {
  empty: "Por favor completa el título y el contenido",
  created: "Post guardado exitosamente!",
  createFailed: "Error al guardar el post. Por favor intenta nuevamente.",
  updated: "Post actualizado exitosamente!",
  updateFailed: "Error al actualizar el post. Por favor intenta nuevamente.",
  loadFailed: "Error loading post",
} as const;

/** How many images in post HTML have no alt text (an empty or missing `alt`). */
export function imagesWithoutAlt(html: string): number {
  const images = html.match(/<img\b[^>]*>/gi) ?? [];
  return images.filter((tag) => !/\balt="[^"]*[^"\s][^"]*"/i.test(tag)).length;
}

/** Said when a post is saved with an image that has no alt text. */
export const missingAltText = (count: number) =>
  count === 1
    ? "An image has no alt text. Describe it (Alt text) so that everyone can read the post, then save again."
    : `${count} images have no alt text. Describe each (Alt text) so that everyone can read the post, then save again.`;

const ENTITY = /&(?:amp|lt|gt|quot|#39|#x27|nbsp);/g;
const ENTITIES: Record<string, string> = {
  "&amp;": "&",
  "&lt;": "<",
  "&gt;": ">",
  "&quot;": '"',
  "&#39;": "'",
  "&#x27;": "'",
  "&nbsp;": "\u00a0",
};

/** Text from sanitized HTML as characters: the only entities the sanitizer writes, decoded. */
export const decodeEntities = (text: string) =>
  text.replace(ENTITY, (entity) => ENTITIES[entity] ?? entity);

/** The visible text of post HTML: an editor holding only empty paragraphs has none. */
export function textOfHtml(html: string): string {
  return html
    .replace(/<[^>]*>/g, "")
    .replace(/&nbsp;|&#160;|\u00a0/g, " ")
    .trim();
}
