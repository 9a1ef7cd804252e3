/**
 * Code highlighting, done once on the server when a post is saved (docs/product.md#developer-blog):
 * readers download no highlighter, and the stored post already holds the coloured tokens.
 *
 * Shiki with two themes at once: each token carries its light colour as `color` and its dark
 * one as `--shiki-dark`, and app.css switches to the dark ones under the site's `dark` class.
 * Feed readers and pages without the stylesheet show the light colours. The render sanitizer
 * (app/features/posts/sanitize.server.ts) admits exactly this output and nothing more.
 *
 * Shiki's JavaScript regex engine rather than its Oniguruma WebAssembly build: no wasm to
 * instantiate, and it handles every grammar of app/features/posts/code-languages.ts.
 */
import { setImmediate as nextTurn } from "node:timers/promises";

import type { HighlighterCore } from "shiki/core";

import { CODE_LANGUAGES, PLAIN_TEXT, codeLanguageOf } from "./code-languages";
import { decodeEntities } from "./rules";

/** The two themes, with WCAG AA contrast for every token colour on their own backgrounds. */
export const CODE_THEMES = { light: "github-light-default", dark: "github-dark-default" } as const;

/** One short sample per grammar, highlighted once when the highlighter loads (see below). */
const WARM_UP_SAMPLE = 'const a = "b"; // c\nfunction d(e) { return e + 1 }\n';

let highlighter: Promise<HighlighterCore> | undefined;

/**
 * The highlighter, loaded on the first save (about a quarter of a second; no page render ever
 * waits for it). Every grammar highlights a sample once before its first real block
 * (`warmUp`): with dual themes, a grammar's very first highlight in a process has been seen to
 * give every light token the first token's colour, while later calls are right.
 */
export function loadHighlighter(): Promise<HighlighterCore> {
  highlighter ??= (async () => {
    const [{ createHighlighterCore }, { createJavaScriptRegexEngine }] = await Promise.all([
      import("shiki/core"),
      import("shiki/engine/javascript"),
    ]);
    return createHighlighterCore({
      themes: [
        import("shiki/themes/github-light-default.mjs"),
        import("shiki/themes/github-dark-default.mjs"),
      ],
      langs: [
        import("shiki/langs/bash.mjs"),
        import("shiki/langs/c.mjs"),
        import("shiki/langs/csharp.mjs"),
        import("shiki/langs/css.mjs"),
        import("shiki/langs/diff.mjs"),
        import("shiki/langs/docker.mjs"),
        import("shiki/langs/go.mjs"),
        import("shiki/langs/html.mjs"),
        import("shiki/langs/java.mjs"),
        import("shiki/langs/javascript.mjs"),
        import("shiki/langs/json.mjs"),
        import("shiki/langs/kotlin.mjs"),
        import("shiki/langs/python.mjs"),
        import("shiki/langs/ruby.mjs"),
        import("shiki/langs/rust.mjs"),
        import("shiki/langs/sql.mjs"),
        import("shiki/langs/typescript.mjs"),
        import("shiki/langs/yaml.mjs"),
      ],
      engine: createJavaScriptRegexEngine(),
    });
  })();
  highlighter.catch(() => (highlighter = undefined));
  return highlighter;
}

const warmed = new Set<string>();
/**
 * A grammar's sample highlight (see above), once per process. It compiles the grammar's rules,
 * tens to hundreds of milliseconds each (seconds for all of them), so requests get a turn after
 * each grammar, and a save or an import warms only the grammars its blocks use.
 */
async function warmUp(loaded: HighlighterCore, language: string): Promise<void> {
  if (warmed.has(language)) return;
  highlightWith(loaded, WARM_UP_SAMPLE, language);
  warmed.add(language);
  await nextTurn();
}

/**
 * Starts loading the highlighter and every grammar without waiting for it: the editor's pages
 * call this, so that by the time the owner saves, the first save does not also pay for them.
 */
export function warmHighlighter(): void {
  loadHighlighter()
    .then(async (loaded) => {
      for (const { id } of CODE_LANGUAGES) await warmUp(loaded, id);
    })
    .catch(() => {
      // The save itself will try again and report the failure.
    });
}

function highlightWith(loaded: HighlighterCore, code: string, language: string): string {
  return loaded.codeToHtml(code, {
    lang: language,
    themes: CODE_THEMES,
    defaultColor: "light",
    transformers: [
      {
        // The editor reads a block's language back from its <code> element's class.
        code(node) {
          node.properties.class = `language-${language}`;
        },
      },
    ],
  });
}

const CODE_BLOCK = /<pre\b[^>]*>\s*<code\b([^>]*)>([\s\S]*?)<\/code>\s*<\/pre>/g;
const LANGUAGE_CLASS = /\bclass="[^"]*?\blanguage-([^\s"]+)/;
/** A code block's text from sanitized HTML: any markup inside it dropped, entities decoded. */
function codeText(inner: string): string {
  return decodeEntities(inner.replace(/<[^>]*>/g, ""));
}

/**
 * Post HTML, already sanitized, with every code block highlighted in its language: the block's
 * text is taken alone (whatever markup it held is dropped) and highlighted afresh, so stored
 * tokens always come from Shiki, never from what was sent. A block with no language or one we do
 * not know is kept as plain text, tagged `language-text`.
 */
export async function highlightCodeBlocks(html: string): Promise<string> {
  if (!html.includes("<pre")) return html;
  const loaded = await loadHighlighter();
  const languageOf = (codeAttributes: string) =>
    codeLanguageOf(LANGUAGE_CLASS.exec(codeAttributes)?.[1]) ?? PLAIN_TEXT;
  for (const [, codeAttributes] of html.matchAll(CODE_BLOCK))
    await warmUp(loaded, languageOf(codeAttributes!));
  return html.replace(CODE_BLOCK, (_block, codeAttributes: string, inner: string) => {
    const language = languageOf(codeAttributes);
    // The editor keeps no trailing newline; Shiki would turn one into an empty last line.
    return highlightWith(loaded, codeText(inner).replace(/\n$/, ""), language);
  });
}
