-- Every instance may keep a local copy of a media file (it never changes under its hash), so a
-- deleted file is announced: each deleted row sends its hash on the 'media_deleted' channel, and
-- instances drop their copies. Deletes by any path (a replaced photo, an orphan purge, SQL by
-- hand) announce themselves.
CREATE FUNCTION media_after_delete() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('media_deleted', OLD.hash);
  RETURN OLD;
END $$;
--> statement-breakpoint
CREATE TRIGGER media_after_delete AFTER DELETE ON media
  FOR EACH ROW EXECUTE FUNCTION media_after_delete();
