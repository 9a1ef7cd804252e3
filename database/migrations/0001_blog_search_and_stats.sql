-- pg_trgm is a trusted extension (PostgreSQL 13+): the database owner may create it. PGlite
-- loads it in database/db.server.ts.
CREATE EXTENSION IF NOT EXISTS pg_trgm;
--> statement-breakpoint
CREATE TABLE "blog_stats" (
	"id" boolean PRIMARY KEY DEFAULT true NOT NULL,
	"post_count" integer DEFAULT 0 NOT NULL,
	"version" bigint DEFAULT 0 NOT NULL,
	CONSTRAINT "blog_stats_single_row" CHECK ("blog_stats"."id")
);
--> statement-breakpoint
CREATE INDEX "blog_posts_title_trgm_idx" ON "blog_posts" USING gin ("title" gin_trgm_ops) WITH (fastupdate=false);--> statement-breakpoint
CREATE INDEX "blog_posts_description_trgm_idx" ON "blog_posts" USING gin ("description" gin_trgm_ops) WITH (fastupdate=false);
--> statement-breakpoint
INSERT INTO "blog_stats" ("id", "post_count") SELECT true, count(*) FROM "blog_posts";
--> statement-breakpoint
-- Statement-level triggers keep blog_stats exact for bulk writes too; the version tells
-- readers (app/features/posts/read.server.ts) that cached page boundaries are stale.
CREATE FUNCTION blog_stats_after_insert() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE "blog_stats" SET "post_count" = "post_count" + (SELECT count(*) FROM new_rows), "version" = "version" + 1;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE FUNCTION blog_stats_after_delete() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE "blog_stats" SET "post_count" = "post_count" - (SELECT count(*) FROM old_rows), "version" = "version" + 1;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE FUNCTION blog_stats_after_change() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'TRUNCATE' THEN
    UPDATE "blog_stats" SET "post_count" = 0, "version" = "version" + 1;
  ELSE
    UPDATE "blog_stats" SET "version" = "version" + 1;
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER blog_posts_stats_insert AFTER INSERT ON "blog_posts"
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION blog_stats_after_insert();
--> statement-breakpoint
CREATE TRIGGER blog_posts_stats_delete AFTER DELETE ON "blog_posts"
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION blog_stats_after_delete();
--> statement-breakpoint
CREATE TRIGGER blog_posts_stats_reorder AFTER UPDATE OF "created_at" ON "blog_posts"
  FOR EACH STATEMENT EXECUTE FUNCTION blog_stats_after_change();
--> statement-breakpoint
CREATE TRIGGER blog_posts_stats_truncate AFTER TRUNCATE ON "blog_posts"
  FOR EACH STATEMENT EXECUTE FUNCTION blog_stats_after_change();
