import { unzipOffThread } from "./export-thread.server";
import type { ParsedExport } from "./types";

// The parsers and their libraries (fast-xml-parser, gray-matter) load on an import's first use,
// not with the server: a site that never imports never holds them. A WXR's XML and a zip are
// read in a worker thread (export-thread.server.ts), which loads fast-xml-parser and fflate.
const devtoParser = () => import("./devto.server");
const isDevtoJson = (text: string) => /"body_markdown"\s*:/.test(text);
const decoder = new TextDecoder();
const strFromU8 = (bytes: Uint8Array) => decoder.decode(bytes);

/** A file as handed in: its name (for its kind) and its bytes. */
export type ExportFile = { name: string; bytes: Uint8Array };

const MARKDOWN = /\.(?:md|markdown|mdx)$/i;
/** Files a Markdown post may show as images, kept beside the posts for the import. */
const IMAGE_FILE = /\.(?:png|jpe?g|gif|webp|avif)$/i;
const isZip = (bytes: Uint8Array) => bytes[0] === 0x50 && bytes[1] === 0x4b;

/**
 * Several files (a zip's or a folder's): dev.to's `articles.json`, Medium's `posts/*.html`,
 * else Markdown files.
 */
export async function readExportFiles(files: ExportFile[]): Promise<ParsedExport> {
  const devto = files.find((f) => /(?:^|\/)articles\.json$/i.test(f.name));
  if (devto) {
    const text = strFromU8(devto.bytes).replace(/^\uFEFF/, "");
    if (isDevtoJson(text)) return (await devtoParser()).parseDevto(text);
  }
  const medium = files.filter((f) => /(?:^|\/)posts\/[^/]+\.html$/i.test(f.name));
  if (medium.length > 0) {
    const { parseMedium } = await import("./medium.server");
    return parseMedium(medium.map((f) => ({ name: f.name, html: strFromU8(f.bytes) })));
  }
  const markdown = files.filter((f) => MARKDOWN.test(f.name));
  if (markdown.length > 0) {
    const { parseMarkdown } = await import("./markdown.server");
    const parsed = parseMarkdown(markdown.map((f) => ({ name: f.name, text: strFromU8(f.bytes) })));
    const images = files.filter((f) => IMAGE_FILE.test(f.name));
    if (images.length === 0) return parsed;
    return { ...parsed, attachments: new Map(images.map((f) => [f.name, f.bytes])) };
  }
  const single = files.filter((f) => /\.(?:xml|json)$/i.test(f.name));
  if (single.length === 1) return readExport(single[0]!);
  throw new Error(
    "No export found: neither posts/*.html (Medium), articles.json (dev.to), Markdown files, WXR nor Ghost JSON.",
  );
}

/**
 * One uploaded file, its kind told by its content: a zip (Medium's or dev.to's export, Markdown
 * files), XML (WordPress WXR), JSON (dev.to's articles, else Ghost) or a single Markdown file.
 */
export async function readExport(file: ExportFile): Promise<ParsedExport> {
  if (isZip(file.bytes)) return readExportFiles(await unzipOffThread(file.bytes));
  const text = strFromU8(file.bytes).replace(/^\uFEFF/, "");
  const start = text.trimStart();
  if (start.startsWith("<")) return (await import("./wordpress.server")).readWordPress(text);
  if ((start.startsWith("{") || start.startsWith("[")) && isDevtoJson(text)) {
    return (await devtoParser()).parseDevto(text);
  }
  if (start.startsWith("{")) return (await import("./ghost.server")).parseGhost(text);
  if (MARKDOWN.test(file.name)) {
    return (await import("./markdown.server")).parseMarkdown([{ name: file.name, text }]);
  }
  throw new Error(`${file.name} is not an export this site reads.`);
}
