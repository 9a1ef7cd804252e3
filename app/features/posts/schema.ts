import { z } from "zod";

import { POST_LIMITS, textOfHtml } from "./rules";
import { POST_LINK_LIMITS, readCanonicalUrl, readSyndication } from "./post-links";
import { PUBLISH_TEXT, readSlug, readTags } from "./publishing";

/** PostgreSQL text cannot hold U+0000, and no editor produces it. */
const noNull = (value: string) => !value.includes("\0");

/** The server's check of a post (the editor checks the same rules before sending). */
export const postSchema = z.object({
  /**
   * The revision the edit started from (null: the post had none). Absent: not checked, for
   * clients that predate revisions; the editor always sends it.
   */
  baseRevision: z.number().int().positive().nullable().optional(),
  title: z
    .string({ error: "Title must be text." })
    .trim()
    .min(1, { error: "Title is required." })
    .max(POST_LIMITS.title, { error: `Title can be at most ${POST_LIMITS.title} characters.` })
    .refine(noNull, { error: "Title contains a null character." }),
  description: z
    .string({ error: "Description must be text." })
    .trim()
    .max(POST_LIMITS.description, {
      error: `Description can be at most ${POST_LIMITS.description} characters.`,
    })
    .refine(noNull, { error: "Description contains a null character." })
    .nullish()
    .transform((value) => value ?? ""),
  content: z
    .string({ error: "Content must be text." })
    .refine(noNull, { error: "Content contains a null character.", abort: true })
    .refine((html) => textOfHtml(html) !== "", { error: "Content is required." }),
  /** Empty or absent: made from the title for a new post, kept for an existing one. */
  slug: z
    .string({ error: "The URL must be text." })
    .optional()
    .transform((value, ctx) => {
      const read = readSlug(value ?? "");
      if ("error" in read) {
        ctx.addIssue({ code: "custom", message: read.error });
        return z.NEVER;
      }
      return read.slug;
    }),
  /** Absent: none for a new post, kept for an existing one. */
  tags: z
    .union([z.string(), z.array(z.string())], { error: "Tags must be text or a list of texts." })
    .optional()
    .transform((value, ctx) => {
      if (value === undefined) return null;
      const read = readTags(value);
      if ("error" in read) {
        ctx.addIssue({ code: "custom", message: read.error });
        return z.NEVER;
      }
      return read.tags;
    }),
  /**
   * Absent: a new post is published now (as the API always did), an existing one keeps its
   * state. `at` is an ISO time with its offset.
   */
  publish: z
    .discriminatedUnion(
      "mode",
      [
        z.object({ mode: z.literal("draft") }),
        z.object({ mode: z.literal("now") }),
        z.object({
          mode: z.literal("at"),
          at: z.iso
            .datetime({ offset: true, error: PUBLISH_TEXT.badTime })
            .transform((at) => new Date(at)),
        }),
      ],
      { error: "Publish must be draft, now, or at a time." },
    )
    .optional(),
  /**
   * Whether the post goes by e-mail to the confirmed subscribers when it is first published
   * (docs/decisions/037-newsletter.md). Absent: the stored choice is kept (none: no). Read
   * only at the first publication: a post published before is never sent.
   */
  sendToSubscribers: z.boolean({ error: "sendToSubscribers must be true or false." }).optional(),
  /** Where the post was first published, if elsewhere ("" for none). Absent: kept. */
  canonicalUrl: z
    .string({ error: "The canonical URL must be text." })
    .optional()
    .transform((value, ctx) => {
      if (value === undefined) return undefined;
      const read = readCanonicalUrl(value);
      if ("error" in read) {
        ctx.addIssue({ code: "custom", message: read.error });
        return z.NEVER;
      }
      return read.url;
    }),
  /** The addresses of its copies elsewhere (a list, or one a line). Absent: kept. */
  syndication: z
    .union([z.string(), z.array(z.string())], {
      error: "Syndication must be text or a list of texts.",
    })
    .optional()
    .transform((value, ctx) => {
      if (value === undefined) return undefined;
      const read = readSyndication(value);
      if ("error" in read) {
        ctx.addIssue({ code: "custom", message: read.error });
        return z.NEVER;
      }
      return read.urls;
    }),
});

export type PostInput = z.infer<typeof postSchema>;

/**
 * An autosave's body: what the editor holds, checked only as far as storing it needs. A title or
 * text still empty, an image still without alt text, a URL or tags still being typed are all kept
 * as they are; Save Post applies the rules above.
 */
export const autosaveSchema = z.object({
  baseRevision: z.number().int().positive().nullable(),
  title: z
    .string()
    .max(POST_LIMITS.title, { error: `Title can be at most ${POST_LIMITS.title} characters.` })
    .refine(noNull, { error: "Title contains a null character." }),
  description: z
    .string()
    .max(POST_LIMITS.description, {
      error: `Description can be at most ${POST_LIMITS.description} characters.`,
    })
    .refine(noNull, { error: "Description contains a null character." }),
  content: z.string().refine(noNull, { error: "Content contains a null character." }),
  /** As typed. */
  slug: z.string().max(POST_LIMITS.title).refine(noNull),
  /** As typed: comma-separated. */
  tags: z.string().max(POST_LIMITS.description).refine(noNull),
  publish: z.union([
    z.object({ mode: z.enum(["keep", "draft", "now"]) }),
    z.object({ mode: z.literal("at"), at: z.string().max(64) }),
  ]),
  /** As typed (absent from an older editor: none). */
  canonicalUrl: z.string().max(POST_LINK_LIMITS.urlLength).refine(noNull).default(""),
  /** As typed: one address a line. */
  syndication: z
    .string()
    .max(POST_LINK_LIMITS.urlLength * POST_LINK_LIMITS.syndication)
    .refine(noNull)
    .default(""),
});

/** What an autosave holds; the links are optional for callers that predate them. */
export type AutosaveInput = z.input<typeof autosaveSchema>;
