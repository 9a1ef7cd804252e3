-- Imports from another blog (docs/decisions/040-imports.md): imported_posts holds the old
-- system's id of every imported post (WordPress post id, Ghost id, Medium id, Markdown file),
-- so that importing the same export twice creates nothing new; imported_paths the old site's
-- URL paths of those posts, each answering 301 to its post. Both go with their post and are
-- kept in backups. import_jobs holds an export uploaded in /admin/import from its dry run to
-- the end of its import (the job's progress and result); it is not kept in backups.
CREATE TABLE "import_jobs" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "import_jobs_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"file_name" text NOT NULL,
	"bytes" "bytea" NOT NULL,
	"status" text DEFAULT 'planned' NOT NULL,
	"done" integer DEFAULT 0 NOT NULL,
	"total" integer DEFAULT 0 NOT NULL,
	"result" jsonb,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "import_jobs_status_check" CHECK ("import_jobs"."status" IN ('planned', 'queued', 'running', 'done', 'failed'))
);
--> statement-breakpoint
CREATE TABLE "imported_paths" (
	"path" text PRIMARY KEY NOT NULL,
	"post_id" integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE "imported_posts" (
	"source" text NOT NULL,
	"source_id" text NOT NULL,
	"post_id" integer NOT NULL,
	"imported_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "imported_posts_source_source_id_pk" PRIMARY KEY("source","source_id")
);
--> statement-breakpoint
ALTER TABLE "imported_paths" ADD CONSTRAINT "imported_paths_post_id_blog_posts_id_fk" FOREIGN KEY ("post_id") REFERENCES "public"."blog_posts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "imported_posts" ADD CONSTRAINT "imported_posts_post_id_blog_posts_id_fk" FOREIGN KEY ("post_id") REFERENCES "public"."blog_posts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "imported_posts_post_idx" ON "imported_posts" USING btree ("post_id");