/**
 * What the editor holds of a post, and what of it the post API is sent: checked by the rules
 * the server applies, so a problem is said before anything is sent.
 */
import { useState } from "react";

import { PUBLISH_TEXT, readSlug, readTags, type PublishState } from "../publishing";
import { imagesWithoutAlt, missingAltText, textOfHtml } from "../rules";
import { useHydrated } from "./hydrated";

/** A post as the editor opens it (the edit page's loader). */
export type EditablePost = {
  id: number;
  title: string;
  description: string;
  content: string;
  slug: string;
  tags: string[];
  status: PublishState;
  /** ISO time it went (or goes) public; null for a draft never published. */
  publishedAt: string | null;
  /** Its newest revision as opened, which the editor's writes start from (null: none yet). */
  revision?: number | null;
};

/** The publishing choice of the form: a draft, public now (or kept public), or at a time. */
export type Visibility = "draft" | "now" | "at";

export type PostDraft = {
  title: string;
  description: string;
  /** The editor's HTML. */
  html: string;
  /** Whether the editor holds no text. */
  empty: boolean;
  /** As typed: empty for "from the title". */
  slug: string;
  /** As typed: comma-separated. */
  tagText: string;
  visibility: Visibility;
  /** The "Publish at" field's value, in the browser's time zone. */
  publishAt: string;
};

/** A datetime-local input's value for a moment, in the browser's time zone. */
function localInputValue(iso: string): string {
  const date = new Date(iso);
  const pad = (n: number) => String(n).padStart(2, "0");
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}T${pad(date.getHours())}:${pad(date.getMinutes())}`;
}

type DraftFields = Omit<PostDraft, "publishAt"> & { publishAt: string | null };

/**
 * The editor's fields, opened from `post` (empty for a new one). `update` changes some of them;
 * `timeZone` is the owner's, known once hydrated.
 */
export function usePostDraft(post?: EditablePost) {
  const [fields, setFields] = useState<DraftFields>(() => ({
    title: post?.title ?? "",
    description: post?.description ?? "",
    html: post?.content ?? "",
    empty: textOfHtml(post?.content ?? "") === "",
    slug: post?.slug ?? "",
    tagText: post?.tags.join(", ") ?? "",
    visibility: post?.status === "draft" ? "draft" : post?.status === "scheduled" ? "at" : "now",
    // Null until typed: a scheduled post's time is shown in the owner's time zone, which only
    // the browser knows, so it is filled in once hydrated.
    publishAt: null,
  }));
  const hydrated = useHydrated();
  const publishAt =
    fields.publishAt ??
    (hydrated && post?.status === "scheduled" && post.publishedAt
      ? localInputValue(post.publishedAt)
      : "");
  const draft: PostDraft = { ...fields, publishAt };
  const update = (changes: Partial<PostDraft>) => setFields((now) => ({ ...now, ...changes }));
  const timeZone = hydrated ? Intl.DateTimeFormat().resolvedOptions().timeZone : null;
  return { draft, update, timeZone };
}

/** The post API's body for a draft, or the first problem the server would refuse it for. */
export function postRequestOf(draft: PostDraft): { body: object } | { problem: string } {
  // Every image needs alt text; the server refuses the post too, this says which problem.
  const withoutAlt = imagesWithoutAlt(draft.html);
  if (withoutAlt > 0) return { problem: missingAltText(withoutAlt) };
  const slug = readSlug(draft.slug);
  if ("error" in slug) return { problem: slug.error };
  const tags = readTags(draft.tagText);
  if ("error" in tags) return { problem: tags.error };
  const at = draft.visibility === "at" ? new Date(draft.publishAt) : null;
  if (at && Number.isNaN(at.getTime())) return { problem: PUBLISH_TEXT.badTime };
  return {
    body: {
      title: draft.title,
      description: draft.description,
      content: draft.html,
      slug: draft.slug,
      tags: tags.tags,
      publish: at ? { mode: "at", at: at.toISOString() } : { mode: draft.visibility },
    },
  };
}
