-- Flat tag pages: tag_stats holds each tag's count of published posts and a version that moves
-- whenever the tag's list may change order, kept by statement-level triggers on post_tags (a
-- bulk write is one update per tag, as blog_stats is kept for the blog). A tag's page reads its
-- count from here and finds its first post from page boundaries cached per version
-- (app/features/posts/read.server.ts), so neither walks the tag's index from the start.
CREATE TABLE "tag_stats" (
	"tag" text PRIMARY KEY NOT NULL,
	"post_count" integer DEFAULT 0 NOT NULL,
	"version" bigint DEFAULT 0 NOT NULL
);
--> statement-breakpoint
-- Adds each tag's change in listed posts (rows with listed_at) and moves its version: `delta`
-- rows hold (tag, +1 or -1 or 0); a 0 only moves the version (a re-dated post).
CREATE FUNCTION tag_stats_apply(changes jsonb) RETURNS void LANGUAGE sql AS $$
  INSERT INTO tag_stats (tag, post_count, version)
  SELECT c.tag, sum(c.delta)::integer, 1
  FROM jsonb_to_recordset(changes) AS c(tag text, delta integer)
  GROUP BY c.tag
  ON CONFLICT (tag) DO UPDATE
    SET post_count = tag_stats.post_count + EXCLUDED.post_count, version = tag_stats.version + 1;
$$;
--> statement-breakpoint
CREATE FUNCTION tag_stats_after_insert() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM tag_stats_apply(coalesce(jsonb_agg(jsonb_build_object('tag', tag, 'delta', 1)), '[]'))
    FROM new_rows WHERE listed_at IS NOT NULL;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE FUNCTION tag_stats_after_delete() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM tag_stats_apply(coalesce(jsonb_agg(jsonb_build_object('tag', tag, 'delta', -1)), '[]'))
    FROM old_rows WHERE listed_at IS NOT NULL;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE FUNCTION tag_stats_after_update() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM tag_stats_apply(coalesce(jsonb_agg(jsonb_build_object('tag', tag, 'delta', delta)), '[]'))
    FROM (
      SELECT tag, -1 AS delta FROM old_rows WHERE listed_at IS NOT NULL
      UNION ALL
      SELECT tag, 1 FROM new_rows WHERE listed_at IS NOT NULL
    ) AS changed;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER post_tags_stats_insert AFTER INSERT ON "post_tags"
  REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION tag_stats_after_insert();
--> statement-breakpoint
CREATE TRIGGER post_tags_stats_delete AFTER DELETE ON "post_tags"
  REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION tag_stats_after_delete();
--> statement-breakpoint
CREATE TRIGGER post_tags_stats_update AFTER UPDATE ON "post_tags"
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION tag_stats_after_update();
--> statement-breakpoint
INSERT INTO tag_stats (tag, post_count, version)
  SELECT tag, count(*) FILTER (WHERE listed_at IS NOT NULL), 1 FROM post_tags GROUP BY tag;
--> statement-breakpoint
CREATE FUNCTION tag_stats_after_truncate() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE tag_stats SET post_count = 0, version = version + 1;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER post_tags_stats_truncate AFTER TRUNCATE ON "post_tags"
  FOR EACH STATEMENT EXECUTE FUNCTION tag_stats_after_truncate();
