/**
 * What the editor holds of a post, and what of it the post API is sent: checked by the rules
 * the server applies, so a problem is said before anything is sent.
 */
import { useState } from "react";

import type { StoredPublishChoice } from "../../../../database/schema";
import { PUBLISH_TEXT, readSlug, readTags, type PublishState } from "../publishing";
import { readCanonicalUrl, readSyndication } from "../post-links";
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
  /** The post's newest revision, which the next save starts from (null: none yet). */
  revision: number | null;
  /** ISO time of the newest save. */
  savedAt: string;
  /** Whether the editor opens autosaved changes visitors do not see yet (Update Post shows them). */
  pending: boolean;
  /** The publishing choice of an autosave, opened as it was left; null for the post's own. */
  publish: StoredPublishChoice | null;
  /** The `Send to subscribers` choice as stored (null: never made). */
  sendToSubscribers: boolean | null;
  /** Whether the post was ever public: then it is never sent, and the choice is not offered. */
  wasEverPublished: boolean;
  /** As the post (or its autosave) holds it: empty for none. */
  canonicalUrl: string;
  syndication: string[];
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
  /**
   * `Send to subscribers`: e-mail the post to the confirmed subscribers when it is first
   * published. On for a post never published unless the owner turned it off.
   */
  sendToSubscribers: boolean;
  /** As typed: empty for none (absent from a copy kept by an older editor). */
  canonicalUrl?: string;
  /** As typed: one address a line. */
  syndicationText?: string;
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
export function usePostDraft(post?: EditablePost, restored?: PostDraft) {
  const [fields, setFields] = useState<DraftFields>(() => restored ?? draftFieldsOf(post));
  const hydrated = useHydrated();
  const openedAt = post?.publish?.mode === "at" ? post.publish.at : post?.publishedAt;
  const publishAt =
    fields.publishAt ??
    (hydrated && fields.visibility === "at" && openedAt ? localInputValue(openedAt) : "");
  const draft: PostDraft = { ...fields, publishAt };
  const update = (changes: Partial<PostDraft>) => setFields((now) => ({ ...now, ...changes }));
  const timeZone = hydrated ? Intl.DateTimeFormat().resolvedOptions().timeZone : null;
  return { draft, update, timeZone };
}

/** The fields of a post as opened (empty for a new one). */
function draftFieldsOf(post?: EditablePost): DraftFields {
  return {
    title: post?.title ?? "",
    description: post?.description ?? "",
    html: post?.content ?? "",
    empty: textOfHtml(post?.content ?? "") === "",
    slug: post?.slug ?? "",
    tagText: post?.tags.join(", ") ?? "",
    sendToSubscribers: post ? (post.sendToSubscribers ?? !post.wasEverPublished) : true,
    canonicalUrl: post?.canonicalUrl ?? "",
    syndicationText: post?.syndication.join("\n") ?? "",
    ...openedVisibility(post),
  };
}

/** The post as the editor opens it, to compare the browser's copy with. */
export const openedDraftOf = (post?: EditablePost): PostDraft => {
  const fields = draftFieldsOf(post);
  return { ...fields, publishAt: fields.publishAt ?? "" };
};

/**
 * The publishing choice the editor opens with: an autosave's as it was left, or the post's
 * state. A scheduled post's time stays null until hydrated: it is shown in the owner's time
 * zone, which only the browser knows.
 */
function openedVisibility(post?: EditablePost): Pick<DraftFields, "visibility" | "publishAt"> {
  const choice = post?.publish;
  if (choice && choice.mode === "at") {
    const at = new Date(choice.at);
    return { visibility: "at", publishAt: Number.isNaN(at.getTime()) ? "" : null };
  }
  if (choice && choice.mode !== "keep") return { visibility: choice.mode, publishAt: null };
  const visibility =
    post?.status === "draft" ? "draft" : post?.status === "scheduled" ? "at" : "now";
  return { visibility, publishAt: null };
}

/** The publishing choice an autosave records, as the fields hold it. */
export function publishChoiceOf(draft: PostDraft): StoredPublishChoice {
  if (draft.visibility !== "at") return { mode: draft.visibility };
  const at = new Date(draft.publishAt);
  return { mode: "at", at: Number.isNaN(at.getTime()) ? draft.publishAt : at.toISOString() };
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
  const canonical = readCanonicalUrl(draft.canonicalUrl ?? "");
  if ("error" in canonical) return { problem: canonical.error };
  const syndication = readSyndication(draft.syndicationText ?? "");
  if ("error" in syndication) return { problem: syndication.error };
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
      // A copy kept by an older editor has no choice: the post's first publication sends it.
      sendToSubscribers: draft.sendToSubscribers !== false,
      canonicalUrl: canonical.url ?? "",
      syndication: syndication.urls,
    },
  };
}
