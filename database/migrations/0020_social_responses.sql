-- Responses and Webmentions (docs/decisions/039-responses-and-webmention.md).
-- social_webmention_targets: the pages a post linked to when its Webmentions were last sent, so
-- an edit that removes a link notifies that page too. Two triggers: a change to a post's shown
-- responses drops its cached pages (the page cache's notice, as migration 0004 sends it), and a
-- post published, or edited while published, queues the job that sends its Webmentions.
CREATE TABLE "social_webmention_targets" (
	"post_id" integer NOT NULL,
	"target" text NOT NULL,
	CONSTRAINT "social_webmention_targets_post_id_target_pk" PRIMARY KEY("post_id","target")
);
--> statement-breakpoint
ALTER TABLE "social_webmention_targets" ADD CONSTRAINT "social_webmention_targets_post_id_blog_posts_id_fk" FOREIGN KEY ("post_id") REFERENCES "public"."blog_posts"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
-- Only approved responses show, so a change that involves none (a reply arriving pending, one
-- rejected from pending) leaves every page as it was. Otherwise the notice names the posts.
CREATE FUNCTION page_cache_notify_responses() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  ids text[];
BEGIN
  IF TG_OP = 'TRUNCATE' THEN
    PERFORM pg_notify('page_cache', 'posts');
    RETURN NULL;
  END IF;
  IF TG_OP = 'INSERT' THEN
    SELECT array_agg(DISTINCT post_id::text) INTO ids FROM new_rows WHERE status = 'approved';
  ELSIF TG_OP = 'DELETE' THEN
    SELECT array_agg(DISTINCT post_id::text) INTO ids FROM old_rows WHERE status = 'approved';
  ELSE
    SELECT array_agg(DISTINCT post_id::text) INTO ids FROM (
      SELECT post_id FROM new_rows WHERE status = 'approved'
      UNION SELECT post_id FROM old_rows WHERE status = 'approved'
    ) AS changed;
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
CREATE TRIGGER social_responses_page_cache_insert AFTER INSERT ON "social_responses"
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION page_cache_notify_responses();
--> statement-breakpoint
CREATE TRIGGER social_responses_page_cache_update AFTER UPDATE ON "social_responses"
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION page_cache_notify_responses();
--> statement-breakpoint
CREATE TRIGGER social_responses_page_cache_delete AFTER DELETE ON "social_responses"
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION page_cache_notify_responses();
--> statement-breakpoint
CREATE TRIGGER social_responses_page_cache_truncate AFTER TRUNCATE ON "social_responses"
  FOR EACH STATEMENT EXECUTE FUNCTION page_cache_notify_responses();
--> statement-breakpoint
-- A post that becomes published, or whose text changes while published, sends its Webmentions:
-- one job per post and text (its key names both), so saving the same text again adds nothing,
-- and an edit made while an earlier job runs gets a job of its own. A post that stops being
-- public (unpublished, trashed) tells the pages it linked to as well, which then find it gone.
CREATE FUNCTION blog_posts_webmention_send() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  version text;
BEGIN
  IF NEW.status = 'published' AND (
    TG_OP = 'INSERT' OR OLD.status IS DISTINCT FROM 'published'
    OR OLD.content IS DISTINCT FROM NEW.content
    OR OLD.content_en IS DISTINCT FROM NEW.content_en
  ) THEN
    version := md5(coalesce(NEW.content, '') || E'\n' || coalesce(NEW.content_en, ''));
  ELSIF TG_OP = 'UPDATE' AND OLD.status = 'published' AND NEW.status <> 'published' THEN
    version := 'withdrawn:' || extract(epoch from now())::text;
  ELSE
    RETURN NULL;
  END IF;
  INSERT INTO jobs (kind, key, payload)
    VALUES (
      'social.webmention-send',
      'social.webmention-send:' || NEW.id || ':' || version,
      jsonb_build_object('postId', NEW.id)
    )
    ON CONFLICT (key) DO NOTHING;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER blog_posts_webmention_send AFTER INSERT OR UPDATE ON "blog_posts"
  FOR EACH ROW EXECUTE FUNCTION blog_posts_webmention_send();
