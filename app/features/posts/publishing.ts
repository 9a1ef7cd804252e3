/**
 * Publishing rules the editor and the server share (no zod, so the browser can load them):
 * tags, slugs and when a post goes public. docs/decisions/017-publishing.md.
 */
import type { PostStatus } from "../../../database/schema";
import { RESERVED_SLUGS, SLUG_FORMAT, SLUG_MAX_LENGTH, slugify } from "./slug";

export const TAG_LIMITS = { perPost: 5, length: 30 } as const;

/** A post's state as the owner sees it; only `published` posts are shown to visitors. */
export type PublishState = PostStatus;

/**
 * What a save asks for: a draft (unpublished), published now (an already public post keeps its
 * date), at a time (scheduled when it is ahead), or the state it has.
 */
export type PublishRequest =
  { mode: "draft" } | { mode: "now" } | { mode: "at"; at: Date } | { mode: "keep" };

export const PUBLISH_TEXT = {
  draft: "Draft",
  scheduled: "Scheduled",
  published: "Published",
  publish: "Publish",
  unpublish: "Unpublish",
  publishAt: "Publish at",
  tags: "Tags",
  slug: "URL",
  tooManyTags: `A post can have at most ${TAG_LIMITS.perPost} tags.`,
  tagTooLong: (tag: string) => `The tag "${tag}" is longer than ${TAG_LIMITS.length} characters.`,
  badSlug: `The URL may hold letters a-z, digits and hyphens, up to ${SLUG_MAX_LENGTH} characters, and not digits alone.`,
  slugTaken: "Another post has or had that URL. Choose another.",
  badTime: "Choose a valid date and time to publish at.",
  sendToSubscribers: "Send to subscribers",
  sendToSubscribersHint:
    "E-mails the post to your confirmed subscribers when it is first published, at once or at its time. Later edits are not sent.",
} as const;

/** A tag as stored and shown in URLs: the slug of what was typed ("Node.js" → "node-js"). */
export const tagOf = (text: string) => slugify(text);

/**
 * The tags typed in the editor's field (comma-separated) or sent as a list: each folded to its
 * URL form, empty ones and repeats dropped, the order kept. An error when there are more than
 * TAG_LIMITS.perPost or one is too long.
 */
export function readTags(
  input: string | readonly string[],
): { tags: string[] } | { error: string } {
  const items = typeof input === "string" ? input.split(",") : input;
  const tags: string[] = [];
  for (const item of items) {
    const tag = tagOf(item);
    if (tag === "" || tags.includes(tag)) continue;
    if (tag.length > TAG_LIMITS.length) return { error: PUBLISH_TEXT.tagTooLong(tag) };
    tags.push(tag);
  }
  if (tags.length > TAG_LIMITS.perPost) return { error: PUBLISH_TEXT.tooManyTags };
  return { tags };
}

/** A slug the owner typed, folded like a title's: null for "from the title", or an error. */
export function readSlug(input: string): { slug: string | null } | { error: string } {
  const typed = input.trim();
  if (typed === "") return { slug: null };
  const slug = slugify(typed);
  const bad =
    slug === "" ||
    slug.length > SLUG_MAX_LENGTH ||
    /^\d+$/.test(slug) ||
    RESERVED_SLUGS.includes(slug);
  return bad ? { error: PUBLISH_TEXT.badSlug } : { slug };
}

/** Whether a URL segment can be a tag (tags are stored in their URL form). */
export const isTag = (text: string) => text.length <= TAG_LIMITS.length && SLUG_FORMAT.test(text);

/** The canonical URL path of a post. */
export const postPath = (slug: string) => `/blog/${slug}`;
/** The path of a tag's list (page 1). */
export const tagPath = (tag: string) => `/blog/tags/${tag}`;
