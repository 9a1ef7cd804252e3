ALTER TABLE "blog_posts" ADD COLUMN "canonical_url" text;--> statement-breakpoint
ALTER TABLE "blog_posts" ADD COLUMN "syndication" jsonb DEFAULT '[]'::jsonb;--> statement-breakpoint
ALTER TABLE "post_revisions" ADD COLUMN "canonical_url" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "post_revisions" ADD COLUMN "syndication" jsonb DEFAULT '[]'::jsonb NOT NULL;