CREATE TABLE "media" (
	"hash" text PRIMARY KEY NOT NULL,
	"content_type" text NOT NULL,
	"bytes" bytea NOT NULL,
	"size" integer NOT NULL,
	"width" integer,
	"height" integer,
	"purpose" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "profile" (
	"id" boolean PRIMARY KEY DEFAULT true NOT NULL,
	"name" text NOT NULL,
	"title" text NOT NULL,
	"location" text NOT NULL,
	"email" text NOT NULL,
	"about" jsonb NOT NULL,
	"socials" jsonb NOT NULL,
	"skills" jsonb NOT NULL,
	"tools" jsonb NOT NULL,
	"photo" jsonb,
	"cv" jsonb,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "profile_single_row" CHECK ("profile"."id")
);
--> statement-breakpoint
CREATE INDEX "media_purpose_idx" ON "media" USING btree ("purpose");--> statement-breakpoint
-- Each part of the résumé names its own change, so only the pages that show it are dropped
-- (app/route-policy.ts): "site" for what every page shows (name, title, location, e-mail, photo:
-- header, footer, share cards), "profile" for what only the home page and /resume.json show.
CREATE OR REPLACE FUNCTION page_cache_notify_profile() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'UPDATE' AND (OLD.name, OLD.title, OLD.location, OLD.email, OLD.photo)
      IS NOT DISTINCT FROM (NEW.name, NEW.title, NEW.location, NEW.email, NEW.photo) THEN
    PERFORM pg_notify('page_cache', 'profile');
  ELSE
    PERFORM pg_notify('page_cache', 'site');
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER profile_page_cache AFTER INSERT OR UPDATE OR DELETE ON "profile"
  FOR EACH ROW EXECUTE FUNCTION page_cache_notify_profile();
--> statement-breakpoint
CREATE FUNCTION page_cache_notify_experience() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('page_cache', 'experience');
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE FUNCTION page_cache_notify_education() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('page_cache', 'education');
  RETURN NULL;
END $$;
--> statement-breakpoint
DROP TRIGGER job_experiences_page_cache ON "job_experiences";
--> statement-breakpoint
CREATE TRIGGER job_experiences_page_cache AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "job_experiences"
  FOR EACH STATEMENT EXECUTE FUNCTION page_cache_notify_experience();
--> statement-breakpoint
DROP TRIGGER studies_page_cache ON "studies";
--> statement-breakpoint
CREATE TRIGGER studies_page_cache AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "studies"
  FOR EACH STATEMENT EXECUTE FUNCTION page_cache_notify_education();
--> statement-breakpoint
-- Periods were display text ("Mar 2023"); they become the dates JSON Resume writes ("2023-03"),
-- shown as before. Anything else is kept exactly as it was and shown as it is.
UPDATE "job_experiences" SET "from" = to_char(to_date("from", 'Mon YYYY'), 'YYYY-MM')
  WHERE "from" ~ '^(Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) [12][0-9]{3}$';
--> statement-breakpoint
UPDATE "job_experiences" SET "to" = to_char(to_date("to", 'Mon YYYY'), 'YYYY-MM')
  WHERE "to" ~ '^(Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) [12][0-9]{3}$';
--> statement-breakpoint
UPDATE "studies" SET "from" = to_char(to_date("from", 'Mon YYYY'), 'YYYY-MM')
  WHERE "from" ~ '^(Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) [12][0-9]{3}$';
--> statement-breakpoint
UPDATE "studies" SET "to" = to_char(to_date("to", 'Mon YYYY'), 'YYYY-MM')
  WHERE "to" ~ '^(Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) [12][0-9]{3}$';
