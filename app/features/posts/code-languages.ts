/**
 * The languages a code block can be written in, owned here and shared by the editor's
 * `Language` picker, Markdown paste (fence names such as `ts` or `sh`), the server's highlighter
 * (app/features/posts/highlight.server.ts) and the reader's label above each block. Plain TypeScript with no
 * imports, so the editor can carry it.
 *
 * `id` is what a post stores (`<code class="language-{id}">`) and Shiki's name for the grammar;
 * `aliases` are the other names a Markdown fence may use.
 */
export const CODE_LANGUAGES = [
  { id: "text", label: "Plain text", aliases: ["plain", "plaintext", "txt", "none"] },
  { id: "bash", label: "Bash", aliases: ["sh", "shell", "shellscript", "zsh", "console"] },
  { id: "c", label: "C", aliases: ["h"] },
  { id: "csharp", label: "C#", aliases: ["c#", "cs"] },
  { id: "css", label: "CSS", aliases: [] },
  { id: "diff", label: "Diff", aliases: ["patch"] },
  { id: "docker", label: "Docker", aliases: ["dockerfile"] },
  { id: "go", label: "Go", aliases: ["golang"] },
  { id: "html", label: "HTML", aliases: ["xml"] },
  { id: "java", label: "Java", aliases: [] },
  { id: "javascript", label: "JavaScript", aliases: ["js", "jsx", "mjs", "cjs"] },
  { id: "json", label: "JSON", aliases: ["jsonc", "json5"] },
  { id: "kotlin", label: "Kotlin", aliases: ["kt", "kts"] },
  { id: "python", label: "Python", aliases: ["py"] },
  { id: "ruby", label: "Ruby", aliases: ["rb"] },
  { id: "rust", label: "Rust", aliases: ["rs"] },
  { id: "sql", label: "SQL", aliases: ["postgres", "postgresql", "psql"] },
  { id: "typescript", label: "TypeScript", aliases: ["ts", "tsx", "mts", "cts"] },
  { id: "yaml", label: "YAML", aliases: ["yml"] },
] as const;

export type CodeLanguage = (typeof CODE_LANGUAGES)[number]["id"];

/** What a block without a language is treated as: shown and stored as plain text. */
export const PLAIN_TEXT: CodeLanguage = "text";

const byName = new Map<string, CodeLanguage>(
  CODE_LANGUAGES.flatMap(({ id, aliases }) => [id, ...aliases].map((name) => [name, id] as const)),
);

/** The language a name stands for (an id or an alias, any case), or null for none we know. */
export function codeLanguageOf(name: string | null | undefined): CodeLanguage | null {
  if (!name) return null;
  return byName.get(name.trim().toLowerCase()) ?? null;
}

/** The name a reader sees above a block of `id`. */
export function codeLanguageLabel(id: string): string {
  return CODE_LANGUAGES.find((language) => language.id === id)?.label ?? "Plain text";
}
