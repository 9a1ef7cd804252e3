-- The newsletter (docs/decisions/037-newsletter.md): a new post goes by e-mail to the confirmed
-- subscribers when it is first published, if the owner left `Send to subscribers` on.
-- newsletter_sends holds one row per post and subscriber (sent once, claimed under a lease),
-- newsletter_budget the one rate budget all instances share. blog_posts gains the owner's
-- choice and the time the post was first public; the trigger below queues the newsletter's job
-- on every path that publishes (a save, the publisher, a restore from the trash or history).
CREATE TABLE "newsletter_budget" (
	"id" smallint PRIMARY KEY NOT NULL,
	"tokens" double precision DEFAULT 0 NOT NULL,
	"granted" integer DEFAULT 0 NOT NULL,
	"refilled_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "newsletter_budget_one_row" CHECK ("newsletter_budget"."id" = 1)
);
--> statement-breakpoint
CREATE TABLE "newsletter_sends" (
	"id" serial PRIMARY KEY NOT NULL,
	"post_id" integer NOT NULL,
	"subscriber_id" integer NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"next_attempt_at" timestamp with time zone DEFAULT now() NOT NULL,
	"locked_until" timestamp with time zone,
	"sent_at" timestamp with time zone,
	"last_error" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "newsletter_sends_status_check" CHECK ("newsletter_sends"."status" IN ('pending', 'sent', 'failed', 'skipped'))
);
--> statement-breakpoint
ALTER TABLE "blog_posts" ADD COLUMN "send_to_subscribers" boolean;--> statement-breakpoint
ALTER TABLE "blog_posts" ADD COLUMN "first_published_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "newsletter_sends" ADD CONSTRAINT "newsletter_sends_post_id_blog_posts_id_fk" FOREIGN KEY ("post_id") REFERENCES "public"."blog_posts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "newsletter_sends" ADD CONSTRAINT "newsletter_sends_subscriber_id_subscribers_id_fk" FOREIGN KEY ("subscriber_id") REFERENCES "public"."subscribers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "newsletter_sends_recipient_idx" ON "newsletter_sends" USING btree ("post_id","subscriber_id");--> statement-breakpoint
CREATE INDEX "newsletter_sends_due_idx" ON "newsletter_sends" USING btree ("next_attempt_at","id") WHERE "newsletter_sends"."status" = 'pending';--> statement-breakpoint
INSERT INTO "newsletter_budget" ("id") VALUES (1);
--> statement-breakpoint
-- Posts already public, or public once and unpublished since, were first published before:
-- none of them is sent. A scheduled post (trashed or not) has never been public yet.
UPDATE "blog_posts" SET "first_published_at" = "published_at"
  WHERE "published_at" IS NOT NULL AND "published_at" <= now()
    AND "status" <> 'scheduled' AND coalesce("trashed_status", '') <> 'scheduled';
--> statement-breakpoint
-- The first time a post is published (inserted or updated into `published` with no
-- first_published_at), the time is kept and, if the owner chose it, the newsletter's job is
-- queued in the same transaction: keyed by the post, so it exists once. The row's id is already
-- set in a BEFORE trigger (its default ran), and jobs has no foreign key to wait for.
CREATE FUNCTION blog_posts_first_publication() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW.status = 'published' AND NEW.first_published_at IS NULL THEN
    NEW.first_published_at := now();
    IF NEW.send_to_subscribers THEN
      INSERT INTO jobs (kind, key, payload)
        VALUES ('newsletter.expand', 'newsletter.expand:' || NEW.id, jsonb_build_object('postId', NEW.id))
        ON CONFLICT (key) DO NOTHING;
    END IF;
  END IF;
  RETURN NEW;
END
$$;
--> statement-breakpoint
CREATE TRIGGER blog_posts_first_publication BEFORE INSERT OR UPDATE ON "blog_posts"
  FOR EACH ROW EXECUTE FUNCTION blog_posts_first_publication();
