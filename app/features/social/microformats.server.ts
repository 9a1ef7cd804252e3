/**
 * What a Webmention's source says, read from its microformats2 (microformats-parser): the first
 * h-entry's author (p-author h-card: name, url, photo), content, published date, and what kind of
 * response it is to the target (in-reply-to: reply, like-of: like, repost-of: announce, else a
 * mention).
 *
 * The parser (with parse5, about 1 MB of the server's heap) is imported by the first Webmention
 * received, not when the server starts.
 */
import type { mf2 } from "microformats-parser";

import type { ResponseKind } from "../../../database/schema";
import { normalizeUrl } from "./links.server";

type Property = ReturnType<typeof mf2>["items"][number]["properties"][string][number];
type Root = Extract<Property, { properties: unknown }>;

export type SourceEntry = {
  kind: ResponseKind;
  authorName: string | null;
  authorUrl: string | null;
  authorPhoto: string | null;
  contentHtml: string | null;
  publishedAt: Date | null;
};

const isRoot = (value: Property | undefined): value is Root =>
  typeof value === "object" && value !== null && "properties" in value;

/** A property's value as text: a string, an image's URL, an HTML value's text, an item's value. */
function textOf(value: Property | undefined): string | null {
  if (value === undefined) return null;
  if (typeof value === "string") return value;
  if (isRoot(value)) return typeof value.value === "string" ? value.value : null;
  return value.value ?? null;
}

/** The first h-entry, at the top or inside an h-feed. */
function firstEntry(items: Root[]): Root | null {
  for (const item of items) {
    if (item.type?.includes("h-entry")) return item;
    const inner = firstEntry((item.children ?? []) as Root[]);
    if (inner) return inner;
  }
  return null;
}

/** The URLs a response property (in-reply-to, like-of…) names: plain URLs or h-cites. */
function urlsOf(values: Property[] | undefined): string[] {
  return (values ?? []).flatMap((value) => {
    const url = isRoot(value)
      ? (textOf(value.properties.url?.[0]) ?? textOf(value))
      : textOf(value);
    const normalized = url === null ? null : normalizeUrl(url);
    return normalized === null ? [] : [normalized];
  });
}

function kindOf(entry: Root, target: string): ResponseKind {
  const wanted = normalizeUrl(target);
  const names = (name: string) => urlsOf(entry.properties[name]).includes(wanted ?? "");
  if (names("in-reply-to")) return "reply";
  if (names("like-of")) return "like";
  if (names("repost-of")) return "announce";
  return "mention";
}

/** Plain text as HTML that shows it as it is. */
const escapeText = (text: string | null) =>
  text === null
    ? null
    : text.replace(
        /[&<>"]/g,
        (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" })[c]!,
      );

function dateOf(value: string | null): Date | null {
  if (value === null) return null;
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? null : date;
}

let parserLoading: Promise<typeof mf2> | undefined;
const loadParser = () =>
  (parserLoading ??= import("microformats-parser").then((module) => module.mf2));

/** Reads the source page's entry; a page without one is a mention by no one in particular. */
export async function readSource(
  html: string,
  sourceUrl: string,
  target: string,
): Promise<SourceEntry> {
  const parsed = (await loadParser())(html, { baseUrl: sourceUrl });
  const entry = firstEntry(parsed.items as Root[]);
  if (!entry) {
    return {
      kind: "mention",
      authorName: null,
      authorUrl: null,
      authorPhoto: null,
      contentHtml: null,
      publishedAt: null,
    };
  }
  const author = entry.properties.author?.[0];
  const card = isRoot(author) ? author : null;
  const authorText = card ? null : textOf(author);
  const authorIsUrl = authorText !== null && normalizeUrl(authorText)?.startsWith("http") === true;
  const content = entry.properties.content?.[0];
  const contentHtml =
    typeof content === "object" && content !== null && "html" in content
      ? content.html
      : escapeText(textOf(content) ?? textOf(entry.properties.summary?.[0]));
  return {
    kind: kindOf(entry, target),
    authorName: card ? textOf(card.properties.name?.[0]) : authorIsUrl ? null : authorText,
    authorUrl: card ? textOf(card.properties.url?.[0]) : authorIsUrl ? authorText : null,
    authorPhoto: card ? textOf(card.properties.photo?.[0]) : null,
    contentHtml: contentHtml ? contentHtml.trim() : null,
    publishedAt: dateOf(textOf(entry.properties.published?.[0])),
  };
}
