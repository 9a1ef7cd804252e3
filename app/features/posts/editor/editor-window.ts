/**
 * This editor window's id, sent with its writes (EDITOR_WINDOW_HEADER) so that a conflict can
 * tell this window from another of the same browser: random, one per page load.
 */
let windowId: string | undefined;

export function editorWindowId(): string {
  windowId ??= Array.from(crypto.getRandomValues(new Uint8Array(16)), (byte) =>
    byte.toString(16).padStart(2, "0"),
  ).join("");
  return windowId;
}
