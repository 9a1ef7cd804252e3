-- The site's ActivityPub side (docs/decisions/038-activitypub-with-fedify.md). The profile gains
-- the owner's fediverse handle (null: made from the name). The trigger below queues the
-- federation's job for a post whenever it may have become public (a save, the scheduler, a
-- restore), changed while public, or stopped being public (unpublished, trashed, deleted): the
-- job (app/features/social/outbox.server.ts) decides from what was last sent whether that is a
-- Create, an Update, a Delete or nothing. Keyed per post; a change while the job is queued or
-- running re-arms it (its current run then loses its claim and it runs once more), so the last
-- change is always looked at.
ALTER TABLE "profile" ADD COLUMN "fediverse_handle" text;
--> statement-breakpoint
CREATE FUNCTION blog_posts_federate() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  changed_id integer;
BEGIN
  IF TG_OP = 'DELETE' THEN
    IF OLD.status <> 'published' THEN RETURN NULL; END IF;
    changed_id := OLD.id;
  ELSIF TG_OP = 'INSERT' THEN
    IF NEW.status <> 'published' THEN RETURN NULL; END IF;
    changed_id := NEW.id;
  ELSE
    IF NEW.status <> 'published' AND OLD.status <> 'published' THEN RETURN NULL; END IF;
    IF NEW.status = OLD.status
      AND NEW.title IS NOT DISTINCT FROM OLD.title
      AND NEW.description IS NOT DISTINCT FROM OLD.description
      AND NEW.content IS NOT DISTINCT FROM OLD.content
      AND NEW.slug IS NOT DISTINCT FROM OLD.slug
      AND NEW.published_at IS NOT DISTINCT FROM OLD.published_at
      AND NEW.updated_at IS NOT DISTINCT FROM OLD.updated_at THEN
      RETURN NULL;
    END IF;
    changed_id := NEW.id;
  END IF;
  INSERT INTO jobs (kind, key, payload)
    VALUES ('social.post-changed', 'social.post-changed:' || changed_id, jsonb_build_object('postId', changed_id))
    ON CONFLICT (key) DO UPDATE
      -- A run in hand keeps counting: its claim then no longer matches (the job worker compares
      -- attempts), so it cannot mark the re-armed job done, even once another worker claimed it.
      SET status = 'pending', run_at = now(), locked_until = NULL, last_error = NULL,
        attempts = CASE WHEN jobs.locked_until > now() THEN jobs.attempts + 1 ELSE 0 END;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER blog_posts_federate AFTER INSERT OR UPDATE OR DELETE ON "blog_posts"
  FOR EACH ROW EXECUTE FUNCTION blog_posts_federate();
