/** A post as its page shows it: what the server reads (./post-view.server.ts) and the reader draws. */
import type { ShareImage } from "~/features/cards";

import type { PublishState } from "../publishing";

/** An h2 or h3 of a post, for its table of contents. */
export type TocEntry = { id: string; text: string; level: 2 | 3 };

/** A post's HTML framed for reading, with its headings and reading time. */
export type RenderedPost = {
  html: string;
  /** The h2/h3 headings, in order; empty when there are fewer than TOC_MIN_HEADINGS. */
  toc: TocEntry[];
  readingMinutes: number;
  /** Whether it holds math: its page then loads KaTeX's stylesheet (and that page only). */
  hasMath: boolean;
};

export type PostView = {
  id: number;
  slug: string;
  title: string;
  /** The post's own, or an excerpt of its text when it has none. */
  description: string;
  status: PublishState;
  /** When it went (or goes) public; when it was written, for a draft never published. */
  publishedAt: Date;
  updatedAt: Date;
  tags: string[];
  content: RenderedPost;
  /** The English version, when the post has one. */
  contentEn: RenderedPost | null;
  /** Its share card, once drawn (published and scheduled posts). */
  shareImage: ShareImage | null;
  /** Where it was first published, when elsewhere: its canonical URL (null: this page). */
  canonicalUrl: string | null;
  /** The addresses of its copies elsewhere ("Also on dev.to"). */
  syndication: string[];
};

/** Another post offered at the foot of one. */
export type RelatedPost = { slug: string; title: string; publishedAt: Date };
