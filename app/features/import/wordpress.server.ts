import { setImmediate as nextTurn } from "node:timers/promises";

import { XMLParser } from "fast-xml-parser";

import { EXPORT_THREAD_LIMITS, parseXmlOffThread, type XmlOptions } from "./export-thread.server";
import { cleanWordPressHtml, imagesOfHtml, textOf } from "./html-clean";
import type { ImportedPost, ImportedStatus, ParsedExport, SkippedEntry } from "./types";
import { postSlugOf } from "~/features/posts";

type XmlText = string | { "#text"?: string | number };
type WxrCategory =
  string | { "#text"?: string | number; "@_domain"?: string; "@_nicename"?: string };

/** Categories and tags both become tags here; post formats and other taxonomies do not. */
const TAG_DOMAINS = new Set(["post_tag", "category", ""]);
type WxrItem = Record<string, unknown> & { category?: WxrCategory[] };

const STATUS: Record<string, ImportedStatus> = {
  publish: "published",
  future: "scheduled",
  draft: "draft",
  pending: "draft",
  private: "draft",
};

function text(value: unknown): string {
  if (value === undefined || value === null) return "";
  if (typeof value === "object") return String((value as { "#text"?: unknown })["#text"] ?? "");
  return String(value as string | number);
}

/** WXR's `post_date_gmt` ("2018-11-01 06:03:22", UTC; "0000-00-00 00:00:00" for none). */
function gmtDate(value: XmlText | undefined): Date | null {
  const match = /^(\d{4})-(\d\d)-(\d\d) (\d\d):(\d\d):(\d\d)$/.exec(text(value).trim());
  if (!match || match[1] === "0000") return null;
  return new Date(`${match[1]}-${match[2]}-${match[3]}T${match[4]}:${match[5]}:${match[6]}Z`);
}

/** The path of an address, or null when it is not one. */
function pathOf(url: string): string | null {
  try {
    const parsed = new URL(url);
    return `${parsed.pathname}${parsed.search}`;
  } catch {
    return null;
  }
}

/** WordPress's URL forms of a post: `/?p=123`, the permalink given, `/YYYY/MM/DD/slug/`. */
function oldPathsOf(id: string, link: string, localDate: string, name: string): string[] {
  const paths = [`/?p=${id}`];
  const linkPath = pathOf(link);
  if (linkPath && linkPath !== "/") paths.push(linkPath);
  const day = /^(\d{4})-(\d\d)-(\d\d)/.exec(localDate);
  if (day && day[1] !== "0000" && name) paths.push(`/${day[1]}/${day[2]}/${day[3]}/${name}/`);
  return [...new Set(paths)];
}

/** `wp:post_id`, or for an export without it (WordPress.com's preview) the `?p=` of its guid. */
function idOf(item: WxrItem): string {
  const id = text(item["wp:post_id"]).trim();
  if (id) return id;
  return /[?&]p=(\d+)/.exec(`${text(item["guid"])} ${text(item["link"])}`)?.[1] ?? "";
}

/** The address of the post's featured image (`_thumbnail_id` → its attachment), if any. */
function featuredImageOf(item: WxrItem, attachments: ReadonlyMap<string, string>): string[] {
  const meta = (item["wp:postmeta"] ?? []) as Record<string, unknown>[];
  const id = meta.find((m) => text(m["wp:meta_key"]).trim() === "_thumbnail_id");
  const url = id && attachments.get(text(id["wp:meta_value"]).trim());
  return url ? [url] : [];
}

function postOf(
  item: WxrItem,
  id: string,
  status: ImportedStatus,
  attachments: ReadonlyMap<string, string>,
): ImportedPost {
  const title = text(item["title"]).trim();
  const name = decodeURIComponent(text(item["wp:post_name"]).trim());
  const html = cleanWordPressHtml(text(item["content:encoded"]));
  const excerpt = textOf(text(item["excerpt:encoded"]));
  const link = text(item["link"]).trim();
  const categories = item.category ?? [];
  return {
    source: "wordpress",
    sourceId: id,
    oldUrl: link || null,
    oldPaths: oldPathsOf(id, link, text(item["wp:post_date"]), name),
    title,
    slug: postSlugOf(name || title),
    description: excerpt,
    status,
    publishedAt:
      gmtDate(item["wp:post_date_gmt"] as XmlText) ?? gmtDate(item["wp:post_date"] as XmlText),
    updatedAt: gmtDate(item["wp:post_modified_gmt"] as XmlText),
    tags: categories
      // Plain RSS categories (no domain) are what a WordPress.com preview export writes.
      .filter((c) => typeof c !== "object" || TAG_DOMAINS.has(c["@_domain"] ?? ""))
      .map((c) => text(c).trim())
      .filter((name) => name !== "" && name !== "Uncategorized"),
    body: { format: "html", text: html },
    canonicalUrl: null,
    images: [...new Set([...featuredImageOf(item, attachments), ...imagesOfHtml(html)])],
    cover: featuredImageOf(item, attachments).map((url) => ({ url, alt: "" }))[0] ?? null,
  };
}

const XML_OPTIONS: XmlOptions = {
  ignoreAttributes: false,
  parseTagValue: false,
  processEntities: true,
};
/** Read as lists even when there is one. */
const ARRAY_TAGS = ["item", "category", "wp:postmeta"];
type WxrDocument = { rss?: { channel?: { item?: WxrItem[] } } };

/** The posts read from the items so far, and what was skipped. */
type Reading = { posts: ImportedPost[]; skipped: SkippedEntry[] };

/** The export's attachments by id: what a post's featured image (`_thumbnail_id`) names. */
function attachmentsOf(items: WxrItem[]): ReadonlyMap<string, string> {
  return new Map(
    items
      .filter((item) => text(item["wp:post_type"]).trim() === "attachment")
      .map((item) => [idOf(item), text(item["wp:attachment_url"]).trim()] as const)
      .filter(([id, url]) => id !== "" && url !== ""),
  );
}

function readItem(
  item: WxrItem,
  { posts, skipped }: Reading,
  attachments: ReadonlyMap<string, string>,
) {
  const id = idOf(item);
  const type = text(item["wp:post_type"]).trim();
  const title = text(item["title"]).trim();
  if (type !== "post") {
    // Attachments are the images themselves, reached through the posts that show them.
    if (type !== "attachment")
      skipped.push({ sourceId: id, title, reason: `a ${type}, not a post` });
    return;
  }
  const status = STATUS[text(item["wp:status"]).trim()];
  if (!status) {
    skipped.push({ sourceId: id, title, reason: `status "${text(item["wp:status"])}"` });
    return;
  }
  if (text(item["wp:post_password"]).trim() !== "") {
    skipped.push({ sourceId: id, title, reason: "protected by a password" });
    return;
  }
  posts.push(postOf(item, id, status, attachments));
}

function channelOf(document: WxrDocument) {
  const channel = document.rss?.channel;
  if (!channel) throw new Error("This is not a WordPress export: it has no RSS channel.");
  return channel;
}

/** A WordPress export (WXR, the XML of Tools → Export) as posts, read on the calling thread. */
export function parseWordPress(xml: string): ParsedExport {
  const parser = new XMLParser({
    ...XML_OPTIONS,
    isArray: (name) => ARRAY_TAGS.includes(name),
  });
  const channel = channelOf(parser.parse(xml) as WxrDocument);
  const items = channel.item ?? [];
  const attachments = attachmentsOf(items);
  const reading: Reading = { posts: [], skipped: [] };
  for (const item of items) readItem(item, reading, attachments);
  return { source: "wordpress", ...reading };
}

/**
 * The same as `parseWordPress`, without holding the event loop: the XML is parsed in a worker
 * thread, and its items are read here a part at a time, each part followed by a turn of the
 * event loop.
 */
export async function readWordPress(xml: string): Promise<ParsedExport> {
  const document = await parseXmlOffThread(xml, XML_OPTIONS, ARRAY_TAGS, [
    "rss",
    "channel",
    "item",
  ]);
  const items = channelOf(document as WxrDocument).item ?? [];
  const attachments = attachmentsOf(items);
  const reading: Reading = { posts: [], skipped: [] };
  for (const [index, item] of items.entries()) {
    readItem(item, reading, attachments);
    if ((index + 1) % EXPORT_THREAD_LIMITS.itemsPerMessage === 0) await nextTurn();
  }
  return { source: "wordpress", ...reading };
}
