-- Publishing (docs/decisions/017-publishing.md): drafts and scheduled posts, slugs with their
-- history, tags, and full-text search. Existing posts become published on their creation date,
-- each with a slug made from its title.
--
-- unaccent is a trusted extension (PostgreSQL 13+), like pg_trgm; PGlite loads it in
-- database/db.server.ts. The "blog_search" text search configuration folds accents before the
-- simple dictionary, so "migracion" finds "migración" and snippets keep the accents.
CREATE EXTENSION IF NOT EXISTS unaccent;
--> statement-breakpoint
CREATE TEXT SEARCH CONFIGURATION blog_search (COPY = simple);
--> statement-breakpoint
ALTER TEXT SEARCH CONFIGURATION blog_search
  ALTER MAPPING FOR word, hword, hword_part, numword, hword_numpart WITH unaccent, simple;
--> statement-breakpoint
-- The text a reader sees in a post's stored HTML: inline tags vanish (so "<strong>Mig</strong>ra"
-- stays one word), other tags become spaces, and the entities the sanitizer writes are decoded.
CREATE FUNCTION blog_post_text(html text) RETURNS text LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT replace(replace(replace(replace(replace(replace(replace(
    regexp_replace(
      regexp_replace(coalesce(html, ''), '</?(a|b|strong|i|em|code|span|mark|s|u|sub|sup|kbd)(\s[^>]*)?>', '', 'gi'),
      '<[^>]*>', ' ', 'g'),
    '&lt;', '<'), '&gt;', '>'), '&quot;', '"'), '&#39;', ''''), '&#x27;', ''''), '&nbsp;', ' '), '&amp;', '&')
$$;
--> statement-breakpoint
CREATE FUNCTION blog_post_document(title text, description text, content text) RETURNS tsvector
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  -- Angle brackets become spaces: the parser would take "<script>" written in a post's text for
  -- markup and skip the word.
  SELECT setweight(to_tsvector('blog_search'::regconfig, translate(coalesce(title, ''), '<>', '  ')), 'A')
      || setweight(to_tsvector('blog_search'::regconfig, translate(coalesce(description, ''), '<>', '  ')), 'B')
      || setweight(to_tsvector('blog_search'::regconfig, translate(blog_post_text(content), '<>', '  ')), 'C')
$$;
--> statement-breakpoint
-- The slug a title gives, by the rules of postSlugOf in app/features/posts/slug.ts (a test holds the two
-- equal): ASCII, lower case, hyphens, accents folded, at most 80 characters cut at a hyphen,
-- never only digits (those are ids) nor a word the blog's own URLs use.
CREATE FUNCTION blog_slug_of(title text) RETURNS text LANGUAGE plpgsql STABLE AS $$
DECLARE
  s text := trim(both '-' from regexp_replace(lower(unaccent(coalesce(title, ''))), '[^a-z0-9]+', '-', 'g'));
BEGIN
  IF length(s) > 80 THEN
    s := left(s, 81);
    s := CASE WHEN position('-' IN s) > 0 THEN regexp_replace(s, '-[^-]*$', '') ELSE left(s, 80) END;
    s := trim(both '-' FROM s);
  END IF;
  IF s = '' THEN RETURN 'post'; END IF;
  IF s ~ '^[0-9]+$' THEN RETURN 'post-' || s; END IF;
  IF s IN ('new', 'tags') THEN RETURN s || '-post'; END IF;
  RETURN s;
END $$;
--> statement-breakpoint
-- The first of base, base-2, base-3, … that no post has ever had.
CREATE FUNCTION blog_free_slug(base text) RETURNS text LANGUAGE plpgsql VOLATILE AS $$
DECLARE
  candidate text := base;
  n integer := 1;
BEGIN
  WHILE EXISTS (SELECT 1 FROM post_slugs WHERE slug = candidate) OR EXISTS (SELECT 1 FROM blog_posts WHERE slug = candidate) LOOP
    n := n + 1;
    candidate := base || '-' || n;
  END LOOP;
  RETURN candidate;
END $$;
--> statement-breakpoint
CREATE TABLE "post_slugs" (
	"slug" text PRIMARY KEY NOT NULL,
	"post_id" integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX "post_slugs_post_idx" ON "post_slugs" USING btree ("post_id");
--> statement-breakpoint
CREATE TABLE "post_tags" (
	"post_id" integer NOT NULL,
	"tag" text NOT NULL,
	"position" smallint NOT NULL,
	"listed_at" timestamp with time zone,
	CONSTRAINT "post_tags_post_id_tag_pk" PRIMARY KEY("post_id","tag"),
	CONSTRAINT "post_tags_tag_format" CHECK ("post_tags"."tag" ~ '^[a-z0-9]+(-[a-z0-9]+)*$')
);
--> statement-breakpoint
ALTER TABLE "post_tags" ADD CONSTRAINT "post_tags_post_id_blog_posts_id_fk" FOREIGN KEY ("post_id") REFERENCES "public"."blog_posts"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
CREATE INDEX "post_tags_listed_idx" ON "post_tags" USING btree ("tag","listed_at","post_id") WHERE "post_tags"."listed_at" IS NOT NULL;
--> statement-breakpoint
ALTER TABLE "blog_posts" ADD COLUMN "slug" text DEFAULT '' NOT NULL;
--> statement-breakpoint
ALTER TABLE "blog_posts" ADD COLUMN "status" text DEFAULT 'published' NOT NULL;
--> statement-breakpoint
ALTER TABLE "blog_posts" ADD COLUMN "published_at" timestamp with time zone;
--> statement-breakpoint
ALTER TABLE "blog_posts" ADD COLUMN "search_vector" tsvector DEFAULT ''::tsvector NOT NULL;
--> statement-breakpoint
-- Existing posts: published when they were written, a slug each (oldest first keeps the plain
-- one), and their words indexed. Nothing else about them changes.
UPDATE blog_posts AS p SET slug = numbered.slug
FROM (
  SELECT id, CASE WHEN n = 1 THEN base ELSE base || '-' || n END AS slug
  FROM (
    SELECT id, base, row_number() OVER (PARTITION BY base ORDER BY id) AS n
    FROM (SELECT id, blog_slug_of(title) AS base FROM blog_posts) AS bases
  ) AS ranked
) AS numbered
WHERE p.id = numbered.id;
--> statement-breakpoint
-- A numbered slug can equal another title's own ("Tips" twice and "Tips 2"): the later post
-- moves on to the next free number.
DO $$
DECLARE
  post record;
BEGIN
  FOR post IN
    SELECT id, title FROM (
      SELECT id, title, row_number() OVER (PARTITION BY slug ORDER BY id) AS n FROM blog_posts
    ) AS ranked WHERE n > 1 ORDER BY id
  LOOP
    UPDATE blog_posts SET slug = blog_free_slug(blog_slug_of(post.title)) WHERE id = post.id;
  END LOOP;
END $$;
--> statement-breakpoint
UPDATE blog_posts SET published_at = created_at,
  search_vector = blog_post_document(title, description, content);
--> statement-breakpoint
INSERT INTO post_slugs (slug, post_id) SELECT slug, id FROM blog_posts;
--> statement-breakpoint
ALTER TABLE "post_slugs" ADD CONSTRAINT "post_slugs_post_id_blog_posts_id_fk" FOREIGN KEY ("post_id") REFERENCES "public"."blog_posts"("id") ON DELETE cascade ON UPDATE no action DEFERRABLE INITIALLY DEFERRED;
--> statement-breakpoint
ALTER TABLE "blog_posts" ADD CONSTRAINT "blog_posts_status_check" CHECK ("blog_posts"."status" IN ('draft', 'scheduled', 'published'));
--> statement-breakpoint
ALTER TABLE "blog_posts" ADD CONSTRAINT "blog_posts_slug_format" CHECK ("blog_posts"."slug" ~ '^[a-z0-9]+(-[a-z0-9]+)*$');
--> statement-breakpoint
ALTER TABLE "blog_posts" ADD CONSTRAINT "blog_posts_scheduled_has_time" CHECK ("blog_posts"."status" <> 'scheduled' OR "blog_posts"."published_at" IS NOT NULL);
--> statement-breakpoint
CREATE UNIQUE INDEX "blog_posts_slug_idx" ON "blog_posts" USING btree ("slug");
--> statement-breakpoint
CREATE INDEX "blog_posts_published_idx" ON "blog_posts" USING btree ("published_at","id") WHERE "blog_posts"."status" = 'published';
--> statement-breakpoint
CREATE INDEX "blog_posts_scheduled_idx" ON "blog_posts" USING btree ("published_at") WHERE "blog_posts"."status" = 'scheduled';
--> statement-breakpoint
-- fastupdate off, as for the trigram indexes (migration 0001's note: PGlite never vacuums).
CREATE INDEX "blog_posts_search_idx" ON "blog_posts" USING gin ("search_vector") WITH (fastupdate=false);
--> statement-breakpoint
-- Before a post is written: a slug from the title when none is given, a publication time for a
-- published post without one, and its search document when its text changed (or is missing).
CREATE FUNCTION blog_posts_before_write() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  -- A row written without the new columns (a backup from before publishing) is a published post.
  NEW.status := coalesce(NEW.status, 'published');
  IF coalesce(NEW.slug, '') = '' THEN
    NEW.slug := CASE WHEN TG_OP = 'UPDATE' THEN OLD.slug ELSE blog_free_slug(blog_slug_of(NEW.title)) END;
  END IF;
  IF NEW.status = 'published' AND NEW.published_at IS NULL THEN
    NEW.published_at := CASE WHEN TG_OP = 'INSERT' THEN NEW.created_at ELSE now() END;
  END IF;
  IF TG_OP = 'INSERT' OR NEW.search_vector IS NULL OR NEW.title IS DISTINCT FROM OLD.title
     OR NEW.description IS DISTINCT FROM OLD.description OR NEW.content IS DISTINCT FROM OLD.content THEN
    NEW.search_vector := blog_post_document(NEW.title, NEW.description, NEW.content);
  END IF;
  RETURN NEW;
END $$;
--> statement-breakpoint
CREATE TRIGGER blog_posts_before_write BEFORE INSERT OR UPDATE ON "blog_posts"
  FOR EACH ROW EXECUTE FUNCTION blog_posts_before_write();
--> statement-breakpoint
-- After: the slug joins the post's history (another post's slug, current or old, is refused),
-- and its tags follow its publication.
CREATE FUNCTION blog_posts_after_write() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  owner_id integer;
BEGIN
  IF TG_OP = 'INSERT' OR NEW.slug IS DISTINCT FROM OLD.slug THEN
    INSERT INTO post_slugs (slug, post_id) VALUES (NEW.slug, NEW.id) ON CONFLICT (slug) DO NOTHING;
    SELECT post_id INTO owner_id FROM post_slugs WHERE slug = NEW.slug;
    IF owner_id IS DISTINCT FROM NEW.id THEN
      RAISE EXCEPTION 'slug "%" belongs to another post', NEW.slug
        USING ERRCODE = 'unique_violation', CONSTRAINT = 'post_slugs_pkey';
    END IF;
  END IF;
  IF TG_OP = 'UPDATE' AND (NEW.status IS DISTINCT FROM OLD.status OR NEW.published_at IS DISTINCT FROM OLD.published_at) THEN
    UPDATE post_tags SET listed_at = CASE WHEN NEW.status = 'published' THEN NEW.published_at END
      WHERE post_id = NEW.id;
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER blog_posts_after_write AFTER INSERT OR UPDATE ON "blog_posts"
  FOR EACH ROW EXECUTE FUNCTION blog_posts_after_write();
--> statement-breakpoint
CREATE FUNCTION post_tags_before_insert() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  SELECT CASE WHEN status = 'published' THEN published_at END INTO NEW.listed_at
    FROM blog_posts WHERE id = NEW.post_id;
  RETURN NEW;
END $$;
--> statement-breakpoint
CREATE TRIGGER post_tags_before_insert BEFORE INSERT ON "post_tags"
  FOR EACH ROW EXECUTE FUNCTION post_tags_before_insert();
--> statement-breakpoint
-- blog_stats now counts published posts, and its version moves whenever the published list's
-- order may change (a publication, an unpublication, a new date).
DROP TRIGGER blog_posts_stats_reorder ON "blog_posts";
--> statement-breakpoint
CREATE OR REPLACE FUNCTION blog_stats_after_insert() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  added bigint;
BEGIN
  SELECT count(*) INTO added FROM new_rows WHERE status = 'published';
  IF added = 0 THEN
    RETURN NULL;
  END IF;
  UPDATE "blog_stats" SET "post_count" = "post_count" + added, "version" = "version" + 1;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION blog_stats_after_delete() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  removed bigint;
BEGIN
  SELECT count(*) INTO removed FROM old_rows WHERE status = 'published';
  IF removed = 0 THEN
    RETURN NULL;
  END IF;
  UPDATE "blog_stats" SET "post_count" = "post_count" - removed, "version" = "version" + 1;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE FUNCTION blog_stats_after_update() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  delta bigint;
BEGIN
  IF NOT EXISTS (
    SELECT 1 FROM new_rows n JOIN old_rows o USING (id)
    WHERE (n.status, n.published_at) IS DISTINCT FROM (o.status, o.published_at)
  ) THEN
    RETURN NULL;
  END IF;
  SELECT (SELECT count(*) FROM new_rows WHERE status = 'published')
       - (SELECT count(*) FROM old_rows WHERE status = 'published') INTO delta;
  UPDATE "blog_stats" SET "post_count" = "post_count" + delta, "version" = "version" + 1;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER blog_posts_stats_update AFTER UPDATE ON "blog_posts"
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION blog_stats_after_update();
--> statement-breakpoint
UPDATE "blog_stats" SET "post_count" = (SELECT count(*) FROM blog_posts WHERE status = 'published'), "version" = "version" + 1;
