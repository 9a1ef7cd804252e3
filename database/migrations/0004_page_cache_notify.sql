-- Every write that changes a public page tells each server instance which cached pages to drop
-- (server/page-cache/link.ts), through NOTIFY on the channel "page_cache". Statement-level triggers
-- keep bulk writes to one notification: up to 50 post ids are named, more means "all posts".
-- Payloads: "posts" (every blog page), "posts:1,2,3" (blog lists and those posts), "profile".
CREATE FUNCTION page_cache_notify_posts() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  ids text[];
BEGIN
  IF TG_OP = 'TRUNCATE' THEN
    PERFORM pg_notify('page_cache', 'posts');
    RETURN NULL;
  END IF;
  IF TG_OP = 'DELETE' THEN
    SELECT array_agg(id::text) INTO ids FROM (SELECT id FROM old_rows LIMIT 51) AS changed;
  ELSE
    SELECT array_agg(id::text) INTO ids FROM (SELECT id FROM new_rows LIMIT 51) AS changed;
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
CREATE TRIGGER blog_posts_page_cache_insert AFTER INSERT ON "blog_posts"
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION page_cache_notify_posts();
--> statement-breakpoint
CREATE TRIGGER blog_posts_page_cache_update AFTER UPDATE ON "blog_posts"
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION page_cache_notify_posts();
--> statement-breakpoint
CREATE TRIGGER blog_posts_page_cache_delete AFTER DELETE ON "blog_posts"
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION page_cache_notify_posts();
--> statement-breakpoint
CREATE TRIGGER blog_posts_page_cache_truncate AFTER TRUNCATE ON "blog_posts"
  FOR EACH STATEMENT EXECUTE FUNCTION page_cache_notify_posts();
--> statement-breakpoint
CREATE FUNCTION page_cache_notify_profile() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('page_cache', 'profile');
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER job_experiences_page_cache AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "job_experiences"
  FOR EACH STATEMENT EXECUTE FUNCTION page_cache_notify_profile();
--> statement-breakpoint
CREATE TRIGGER studies_page_cache AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "studies"
  FOR EACH STATEMENT EXECUTE FUNCTION page_cache_notify_profile();
--> statement-breakpoint
-- A statement that touched no row (deleting a post that is gone) changes no page: the cached
-- page boundaries stay valid, so blog_stats keeps its version.
CREATE OR REPLACE FUNCTION blog_stats_after_insert() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NOT EXISTS (SELECT 1 FROM new_rows) THEN
    RETURN NULL;
  END IF;
  UPDATE "blog_stats" SET "post_count" = "post_count" + (SELECT count(*) FROM new_rows), "version" = "version" + 1;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION blog_stats_after_delete() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NOT EXISTS (SELECT 1 FROM old_rows) THEN
    RETURN NULL;
  END IF;
  UPDATE "blog_stats" SET "post_count" = "post_count" - (SELECT count(*) FROM old_rows), "version" = "version" + 1;
  RETURN NULL;
END $$;
