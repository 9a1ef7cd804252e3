-- Revisions, the trash and the job queue: so that no word the owner types is ever lost.
-- post_revisions keeps every version of a post, its content as a delta against a row of
-- post_revision_bases; a trashed post keeps its row with status 'trashed', so its slug stays
-- reserved and Restore gives it back whole; jobs is the durable queue the purges run from.
CREATE TABLE "jobs" (
	"id" serial PRIMARY KEY NOT NULL,
	"kind" text NOT NULL,
	"key" text,
	"payload" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"run_at" timestamp with time zone DEFAULT now() NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"locked_until" timestamp with time zone,
	"last_error" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "post_revision_bases" (
	"id" serial PRIMARY KEY NOT NULL,
	"post_id" integer NOT NULL,
	"content" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "post_revisions" (
	"id" serial PRIMARY KEY NOT NULL,
	"post_id" integer NOT NULL,
	"kind" text NOT NULL,
	"applied" boolean NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"saved_at" timestamp with time zone DEFAULT now() NOT NULL,
	"title" text NOT NULL,
	"description" text NOT NULL,
	"slug" text NOT NULL,
	"tags" jsonb NOT NULL,
	"publish" jsonb,
	"base_id" integer NOT NULL,
	"delta" jsonb,
	"words_added" integer DEFAULT 0 NOT NULL,
	"words_removed" integer DEFAULT 0 NOT NULL,
	"device" text,
	"session" text,
	"agent" text
);
--> statement-breakpoint
ALTER TABLE "blog_posts" DROP CONSTRAINT "blog_posts_status_check";
--> statement-breakpoint
ALTER TABLE "blog_posts" ADD COLUMN "trashed_at" timestamp with time zone;
--> statement-breakpoint
ALTER TABLE "blog_posts" ADD COLUMN "trashed_status" text;
--> statement-breakpoint
ALTER TABLE "post_revision_bases" ADD CONSTRAINT "post_revision_bases_post_id_blog_posts_id_fk" FOREIGN KEY ("post_id") REFERENCES "public"."blog_posts"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "post_revisions" ADD CONSTRAINT "post_revisions_post_id_blog_posts_id_fk" FOREIGN KEY ("post_id") REFERENCES "public"."blog_posts"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "post_revisions" ADD CONSTRAINT "post_revisions_base_id_post_revision_bases_id_fk" FOREIGN KEY ("base_id") REFERENCES "public"."post_revision_bases"("id") ON DELETE no action ON UPDATE no action;
--> statement-breakpoint
CREATE UNIQUE INDEX "jobs_key_idx" ON "jobs" USING btree ("key");
--> statement-breakpoint
CREATE INDEX "jobs_due_idx" ON "jobs" USING btree ("run_at") WHERE "jobs"."status" = 'pending';
--> statement-breakpoint
CREATE INDEX "post_revision_bases_post_idx" ON "post_revision_bases" USING btree ("post_id","id");
--> statement-breakpoint
CREATE INDEX "post_revisions_post_idx" ON "post_revisions" USING btree ("post_id","id");
--> statement-breakpoint
CREATE INDEX "post_revisions_base_idx" ON "post_revisions" USING btree ("base_id");
--> statement-breakpoint
CREATE INDEX "blog_posts_trashed_idx" ON "blog_posts" USING btree ("trashed_at") WHERE "blog_posts"."status" = 'trashed';
--> statement-breakpoint
ALTER TABLE "blog_posts" ADD CONSTRAINT "blog_posts_trash_complete" CHECK (("blog_posts"."status" = 'trashed') = ("blog_posts"."trashed_at" IS NOT NULL AND "blog_posts"."trashed_status" IS NOT NULL));
--> statement-breakpoint
ALTER TABLE "blog_posts" ADD CONSTRAINT "blog_posts_status_check" CHECK ("blog_posts"."status" IN ('draft', 'scheduled', 'published', 'trashed'));

--> statement-breakpoint
-- A write tells the page caches (and the publishers, which look again at every notice about
-- posts: server/app.ts) only when a visitor could see it: a post public, or scheduled to be,
-- before or after it. Autosaving a draft, or trashing one, drops no cached page.
CREATE OR REPLACE FUNCTION page_cache_notify_posts() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  ids text[];
BEGIN
  IF TG_OP = 'TRUNCATE' THEN
    PERFORM pg_notify('page_cache', 'posts');
    RETURN NULL;
  END IF;
  IF TG_OP = 'DELETE' THEN
    SELECT array_agg(id::text) INTO ids
      FROM (SELECT id FROM old_rows WHERE status IN ('published', 'scheduled') LIMIT 51) AS changed;
  ELSIF TG_OP = 'INSERT' THEN
    SELECT array_agg(id::text) INTO ids
      FROM (SELECT id FROM new_rows WHERE status IN ('published', 'scheduled') LIMIT 51) AS changed;
  ELSE
    SELECT array_agg(id::text) INTO ids
      FROM (SELECT n.id FROM new_rows n JOIN old_rows o ON o.id = n.id
            WHERE n.status IN ('published', 'scheduled') OR o.status IN ('published', 'scheduled')
            LIMIT 51) AS changed;
  END IF;
  IF ids IS NULL THEN
    RETURN NULL;
  ELSIF cardinality(ids) > 50 THEN
    PERFORM pg_notify('page_cache', 'posts');
  ELSE
    PERFORM pg_notify('page_cache', 'posts:' || array_to_string(ids, ','));
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
DROP TRIGGER blog_posts_page_cache_update ON "blog_posts";
--> statement-breakpoint
CREATE TRIGGER blog_posts_page_cache_update AFTER UPDATE ON "blog_posts"
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION page_cache_notify_posts();
