/**
 * The shapes posts are read in, shared by reading (./read.server.ts) and search
 * (./search.server.ts): a list's summary, a whole post, and what visitors may see.
 */
import { desc, eq, ne, sql } from "drizzle-orm";

import {
  blogPosts,
  postTags,
  type PostStatus,
  type StoredShareCard,
} from "../../../database/schema";
import { PAGE_SIZE } from "~/lib/constants";

export type PostSummary = {
  id: number;
  slug: string;
  title: string;
  description: string | null;
  publishedAt: Date;
  tags: string[];
  /**
   * For a search: the words that matched, in the title and in a snippet of the description or
   * body, between MARK_START and MARK_END (./search-query.ts). Null when the search found the
   * post by its second chance (a part of the title or description) or there is no search.
   */
  match: { title: string; snippet: string } | null;
};

export type PostPage = {
  posts: PostSummary[];
  /** Posts matching the search or tag (all published posts without one). */
  total: number;
  pageCount: number;
};

export type Post = {
  id: number;
  slug: string;
  title: string;
  description: string | null;
  content: string;
  contentEn: string | null;
  status: PostStatus;
  /** When it went public (or goes, when scheduled); null for a draft never published. */
  publishedAt: Date | null;
  createdAt: Date;
  updatedAt: Date;
  tags: string[];
  /** Its share card (app/features/cards), once drawn. */
  shareCard: StoredShareCard | null;
  /** The `Send to subscribers` choice (null: never made, which means no). */
  sendToSubscribers: boolean | null;
  /** When it was first public; null for a post never published (its first publication may send it). */
  firstPublishedAt: Date | null;
  /** Where it was first published, when elsewhere (null: here). */
  canonicalUrl: string | null;
  /** The addresses of its copies elsewhere. */
  syndication: string[];
};

/** What visitors may see: published posts. Drafts and scheduled posts are the owner's alone. */
export const isPublished = eq(blogPosts.status, "published");

/** Every post but the trashed ones: what the owner's list and the editor open. */
export const notTrashed = ne(blogPosts.status, "trashed");

/** The state of a post read with notTrashed (or isPublished). */
export const liveStatus = sql<PostStatus>`${blogPosts.status}`;

export const tagsOfPost = sql<
  string[]
>`array(select ${postTags.tag} from ${postTags} where ${postTags.postId} = ${blogPosts.id} order by ${postTags.position})`;

export const summary = {
  id: blogPosts.id,
  slug: blogPosts.slug,
  title: blogPosts.title,
  description: blogPosts.description,
  publishedAt: sql<Date>`${blogPosts.publishedAt}`.mapWith(blogPosts.publishedAt),
  tags: tagsOfPost,
};

export const fullPost = {
  id: blogPosts.id,
  slug: blogPosts.slug,
  title: blogPosts.title,
  description: blogPosts.description,
  content: blogPosts.content,
  contentEn: blogPosts.contentEn,
  status: liveStatus,
  publishedAt: blogPosts.publishedAt,
  createdAt: blogPosts.createdAt,
  updatedAt: blogPosts.updatedAt,
  tags: tagsOfPost,
  shareCard: blogPosts.shareCard,
  sendToSubscribers: blogPosts.sendToSubscribers,
  firstPublishedAt: blogPosts.firstPublishedAt,
  canonicalUrl: blogPosts.canonicalUrl,
  // Null (a row written without it) reads as none.
  syndication: sql<string[]>`coalesce(${blogPosts.syndication}, '[]'::jsonb)`,
};

export const newestFirst = [desc(blogPosts.publishedAt), desc(blogPosts.id)] as const;

export const pageCountFor = (total: number) => Math.ceil(total / PAGE_SIZE);

/** A summary listed without a search. */
export const withoutMatch = <T extends object>(post: T) => ({ ...post, match: null });
