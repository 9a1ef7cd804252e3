/**
 * What the trash says and answers, shared by the editor's Delete, the owner's lists and the
 * trash's action (no server code: the browser loads it). The number of days is TRASH_DAYS, the
 * purge's own.
 */
import type { PostStatus } from "../../../database/schema";
import { TRASH_DAYS } from "./retention";

/** The owner's lists: every post but the trashed, and the trash. */
export const OWNER_POSTS_PATH = "/admin/posts";
export const TRASH_PATH = "/admin/posts/trash";

/** The owner's list after Delete in the editor, naming the post so it can offer Undo. */
export const trashedNoticePath = (id: number) => `${OWNER_POSTS_PATH}?trashed=${id}`;

const days = (n: number) => (n === 1 ? "1 day" : `${n} days`);

export const TRASH_TEXT = {
  heading: "Trash",
  kept: `Deleted posts stay here for ${days(TRASH_DAYS)}, then they are deleted forever. Until then their URLs stay theirs, and Restore brings each back as it was.`,
  empty: "The trash is empty.",
  restore: "Restore",
  deleteForever: "Delete forever",
  keep: "Keep it",
  undo: "Undo",
  /** The editor's confirmation before Delete. */
  moveAsk: (title: string) =>
    `“${title}” goes to the trash for ${days(TRASH_DAYS)}, where you can restore it. Visitors no longer see it.`,
  confirmHeading: "Delete this post forever?",
  confirmAsk: (title: string) =>
    `“${title}”, its URL and its history will be gone for good. This cannot be undone.`,
  trashed: (title: string) => `“${title}” is in the trash for ${days(TRASH_DAYS)}.`,
  restored: (title: string) => `“${title}” is restored.`,
  deleted: (title: string) => `“${title}” is deleted forever.`,
  notInTrash: "That post is not in the trash any more.",
  badRequest: "That request could not be read.",
  wasState: "Was",
  deletedOn: "Deleted",
  purgeIn: (n: number) => (n === 0 ? "deleted forever today" : `deleted forever in ${days(n)}`),
  viewPost: "View post",
  openTrash: "Open the trash",
} as const;

/** What the trash's action answers, for the notice of the page or form that asked. */
export type TrashResult = {
  ok: boolean;
  message: string;
  /** Delete forever was asked without JavaScript: the post whose confirmation to show. */
  confirm?: number;
  /** Where a restored post is. */
  path?: string;
};

/** A post in the owner's trash. */
export type TrashedPost = {
  id: number;
  title: string;
  slug: string;
  /** The state it had, which Restore gives back. */
  status: PostStatus;
  trashedAt: Date;
  /** Whole days left before it is purged (0: it goes at the next purge). */
  purgeInDays: number;
};

export type TrashPage = { posts: TrashedPost[]; total: number; pageCount: number };
