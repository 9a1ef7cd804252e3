import matter from "gray-matter";

/**
 * Front matter of a Markdown file: YAML between `---` lines (Jekyll, Astro, Eleventy, Hugo)
 * through gray-matter, or TOML between `+++` lines (Hugo's default), of which the keys a post
 * uses need only TOML's simple forms: strings, numbers, booleans, dates and arrays of those.
 */
export type FrontMatter = { data: Record<string, unknown>; content: string };

/** A text value of front matter or an export's JSON, trimmed; "" for anything else. */
export const string = (value: unknown) => (typeof value === "string" ? value.trim() : "");

/** A date value (a YAML date, or text a Date reads), or null for none or an invalid one. */
export function dateOf(value: unknown): Date | null {
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? null : value;
  if (typeof value !== "string" || value.trim() === "") return null;
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? null : date;
}

/** Tags as a list, or as one text separated by commas or spaces. */
export function tagsOf(value: unknown): string[] {
  if (Array.isArray(value)) return value.map((tag) => String(tag).trim()).filter(Boolean);
  if (typeof value === "string") return value.split(/[,\s]+/).filter(Boolean);
  return [];
}

function tomlValue(raw: string): unknown {
  const value = raw.trim();
  if (value.startsWith('"') || value.startsWith("'")) {
    return value.startsWith('"') ? (JSON.parse(value) as string) : value.slice(1, -1);
  }
  if (value.startsWith("[")) {
    const inner = value.slice(1, value.lastIndexOf("]"));
    const items = inner.match(/"(?:[^"\\]|\\.)*"|'[^']*'|[^,\s][^,]*/g) ?? [];
    return items.map((item) => tomlValue(item)).filter((item) => item !== "");
  }
  if (value === "true" || value === "false") return value === "true";
  if (/^-?\d+(?:\.\d+)?$/.test(value)) return Number(value);
  if (/^\d{4}-\d\d-\d\d/.test(value)) return new Date(value);
  return value;
}

/** The simple TOML of a front matter: `key = value` lines, arrays across several lines. */
export function parseSimpleToml(source: string): Record<string, unknown> {
  const data: Record<string, unknown> = {};
  const lines = source.split(/\r?\n/);
  for (let i = 0; i < lines.length; i++) {
    const match = /^\s*([\w-]+)\s*=\s*(.*)$/.exec(lines[i]!);
    if (!match) continue;
    let raw = match[2]!.replace(/\s+#[^"']*$/, "");
    if (raw.trim().startsWith("[")) {
      while (!raw.includes("]") && i + 1 < lines.length) raw += ` ${lines[++i]!.trim()}`;
    }
    data[match[1]!] = tomlValue(raw);
  }
  return data;
}

export function readFrontMatter(source: string): FrontMatter {
  const toml = /^\uFEFF?\+\+\+\r?\n([\s\S]*?)\r?\n\+\+\+\r?\n?([\s\S]*)$/.exec(source);
  if (toml) return { data: parseSimpleToml(toml[1]!), content: toml[2]! };
  const parsed = matter(source);
  return { data: parsed.data as Record<string, unknown>, content: parsed.content };
}
