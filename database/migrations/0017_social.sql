-- The social web (app/features/social): the fediverse's followers of the owner's actor, what the
-- owner blocked, the responses others sent (replies, likes, boosts, Webmentions; shown only once
-- approved), the ActivityPub library's key-value store, and the activities the actor sent (its
-- outbox, and what was last said about each post).
CREATE TABLE "social_blocks" (
	"id" serial PRIMARY KEY NOT NULL,
	"kind" text NOT NULL,
	"value" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "social_blocks_kind_check" CHECK ("social_blocks"."kind" IN ('actor', 'domain'))
);
--> statement-breakpoint
CREATE TABLE "social_followers" (
	"id" serial PRIMARY KEY NOT NULL,
	"actor_url" text NOT NULL,
	"inbox_url" text NOT NULL,
	"shared_inbox_url" text,
	"handle" text,
	"name" text,
	"avatar_url" text,
	"domain" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"failing_since" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "social_kv" (
	"key" text PRIMARY KEY NOT NULL,
	"value" jsonb NOT NULL,
	"expires_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "social_outbox" (
	"id" serial PRIMARY KEY NOT NULL,
	"activity_id" text NOT NULL,
	"type" text NOT NULL,
	"post_id" integer,
	"activity" jsonb NOT NULL,
	"published_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "social_outbox_type_check" CHECK ("social_outbox"."type" IN ('Create', 'Update', 'Delete'))
);
--> statement-breakpoint
CREATE TABLE "social_responses" (
	"id" serial PRIMARY KEY NOT NULL,
	"post_id" integer NOT NULL,
	"source" text NOT NULL,
	"kind" text NOT NULL,
	"source_url" text NOT NULL,
	"author_name" text,
	"author_url" text,
	"author_photo" text,
	"content_html" text,
	"published_at" timestamp with time zone,
	"status" text DEFAULT 'pending' NOT NULL,
	"received_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "social_responses_source_check" CHECK ("social_responses"."source" IN ('activitypub', 'webmention')),
	CONSTRAINT "social_responses_kind_check" CHECK ("social_responses"."kind" IN ('reply', 'like', 'announce', 'mention')),
	CONSTRAINT "social_responses_status_check" CHECK ("social_responses"."status" IN ('pending', 'approved', 'rejected'))
);
--> statement-breakpoint
ALTER TABLE "social_responses" ADD CONSTRAINT "social_responses_post_id_blog_posts_id_fk" FOREIGN KEY ("post_id") REFERENCES "public"."blog_posts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "social_blocks_value_idx" ON "social_blocks" USING btree ("kind","value");--> statement-breakpoint
CREATE UNIQUE INDEX "social_followers_actor_idx" ON "social_followers" USING btree ("actor_url");--> statement-breakpoint
CREATE INDEX "social_followers_created_idx" ON "social_followers" USING btree ("created_at","id");--> statement-breakpoint
CREATE INDEX "social_followers_domain_idx" ON "social_followers" USING btree ("domain");--> statement-breakpoint
CREATE INDEX "social_kv_expires_idx" ON "social_kv" USING btree ("expires_at");--> statement-breakpoint
CREATE UNIQUE INDEX "social_outbox_activity_idx" ON "social_outbox" USING btree ("activity_id");--> statement-breakpoint
CREATE INDEX "social_outbox_post_idx" ON "social_outbox" USING btree ("post_id","id");--> statement-breakpoint
CREATE UNIQUE INDEX "social_responses_source_idx" ON "social_responses" USING btree ("source_url","post_id");--> statement-breakpoint
CREATE INDEX "social_responses_post_idx" ON "social_responses" USING btree ("post_id","status");--> statement-breakpoint
CREATE INDEX "social_responses_status_idx" ON "social_responses" USING btree ("status","received_at");