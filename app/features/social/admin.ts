/**
 * The owner's /admin/social page, the parts the browser needs too: its texts, the forms' field
 * names and intents, and the page size. Tests (ours and the federation's) find the buttons by
 * these labels: keep them stable.
 */
import { BODY_LIMITS } from "~/lib/limits";

export const SOCIAL_PATH = "/admin/social";

/** Followers shown per page, newest first. */
export const FOLLOWERS_PAGE_SIZE = 50;
/** Responses waiting for the owner shown at once, oldest first. */
export const QUEUE_PAGE_SIZE = 100;

/** The page's forms are a few small fields. */
export const SOCIAL_BODY_LIMIT = BODY_LIMITS.form;

export const SOCIAL_FIELDS = { intent: "intent", id: "id", page: "page" } as const;

export const SOCIAL_INTENTS = {
  removeFollower: "remove-follower",
  blockFollower: "block-follower",
  blockFollowerDomain: "block-follower-domain",
  approve: "approve",
  reject: "reject",
  blockAuthor: "block-author",
  blockAuthorDomain: "block-author-domain",
  unblock: "unblock",
} as const;

export type SocialIntent = (typeof SOCIAL_INTENTS)[keyof typeof SOCIAL_INTENTS];

export const SOCIAL_TEXT = {
  title: "Social",
  followers: "Followers",
  noFollowers: "No one follows the site yet.",
  queue: "Moderation",
  emptyQueue: "Nothing waits for moderation.",
  blocks: "Blocked",
  noBlocks: "Nothing is blocked.",
  remove: "Remove",
  blockActor: "Block actor",
  blockDomain: "Block domain",
  approve: "Approve",
  reject: "Reject",
  blockAuthor: "Block author",
  unblock: "Unblock",
  /** What each action says once done (shown after the redirect). */
  done: {
    "remove-follower": "Follower removed.",
    "block-follower": "Actor blocked and removed from the followers.",
    "block-follower-domain": "Domain blocked; its followers removed.",
    approve: "Approved: it shows under the post.",
    reject: "Rejected.",
    "block-author": "Author blocked; their responses removed.",
    "block-author-domain": "Domain blocked; its responses removed.",
    unblock: "Unblocked.",
  } satisfies Record<SocialIntent, string>,
} as const;

export const isSocialIntent = (value: unknown): value is SocialIntent =>
  Object.values(SOCIAL_INTENTS).includes(value as SocialIntent);

/** What the page shows (its loader's data). */
export type SocialAdminData = {
  /** What the last action did, after its redirect. */
  notice: string | null;
  followers: {
    page: number;
    pageCount: number;
    total: number;
    rows: {
      id: number;
      actorUrl: string;
      handle: string | null;
      name: string | null;
      domain: string;
      createdAt: string;
    }[];
  };
  pending: {
    id: number;
    postId: number;
    postTitle: string;
    postSlug: string;
    source: "activitypub" | "webmention";
    kind: "reply" | "like" | "announce" | "mention";
    sourceUrl: string;
    authorName: string | null;
    authorUrl: string | null;
    contentHtml: string | null;
    receivedAt: string;
  }[];
  blocks: { id: number; kind: "actor" | "domain"; value: string; createdAt: string }[];
};
