/**
 * Behaviour for the markup the server adds around a post's content (app/features/posts/render.server.ts):
 * `Copy code` buttons put their block's exact text on the clipboard, and a heading's `#` link,
 * besides moving to the heading, copies the heading's full address. One delegated listener on the
 * content; plain DOM with no framework, so any page's script can attach it.
 */

export const COPY_TEXT = {
  copy: "Copy code",
  copied: "Copied",
  linkCopied: "Link copied",
  failed: "Could not copy: select the text and copy it instead.",
} as const;

/** How long a button says "Copied" before it reads `Copy code` again. */
export const COPIED_MS = 2000;

/**
 * Attaches the actions to `root`; `announce` says what happened to screen readers (a polite live
 * region). Returns the function that detaches them. Self-contained (texts and delay are
 * parameters): the pages that do not hydrate run its own source (app/features/site/site-script.ts).
 */
export function attachContentActions(
  root: HTMLElement,
  announce: (text: string) => void,
  texts: typeof COPY_TEXT = COPY_TEXT,
  copiedMs: number = COPIED_MS,
): () => void {
  const timers = new Set<ReturnType<typeof setTimeout>>();

  async function copy(text: string, done: string) {
    try {
      await navigator.clipboard.writeText(text);
      announce(done);
      return true;
    } catch {
      announce(texts.failed);
      return false;
    }
  }

  function onClick(event: MouseEvent) {
    const target = event.target as Element | null;
    const button = target?.closest<HTMLButtonElement>("button[data-copy-code]");
    if (button && root.contains(button)) {
      const code = button.closest(".code-block")?.querySelector("pre");
      if (!code) return;
      void copy(code.textContent ?? "", texts.copied).then((copied) => {
        if (!copied) return;
        button.textContent = texts.copied;
        const timer = setTimeout(() => {
          button.textContent = texts.copy;
          timers.delete(timer);
        }, copiedMs);
        timers.add(timer);
      });
      return;
    }
    const anchor = target?.closest<HTMLAnchorElement>("a[data-copy-link]");
    if (anchor && root.contains(anchor)) {
      // The link still moves to its heading; its full address is copied as well.
      void copy(anchor.href, texts.linkCopied);
    }
  }

  root.addEventListener("click", onClick);
  return () => {
    root.removeEventListener("click", onClick);
    for (const timer of timers) clearTimeout(timer);
  };
}
