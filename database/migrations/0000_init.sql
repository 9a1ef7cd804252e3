CREATE TABLE "app_meta" (
	"key" text PRIMARY KEY NOT NULL,
	"value" text NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "blog_posts" (
	"id" serial PRIMARY KEY NOT NULL,
	"title" text NOT NULL,
	"description" text,
	"content" text NOT NULL,
	"content_en" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "job_experiences" (
	"id" serial PRIMARY KEY NOT NULL,
	"title" text NOT NULL,
	"company" text NOT NULL,
	"from" text NOT NULL,
	"to" text,
	"current_job" boolean DEFAULT false NOT NULL,
	"sort_key" integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "studies" (
	"id" serial PRIMARY KEY NOT NULL,
	"degree" text NOT NULL,
	"institution" text NOT NULL,
	"from" text NOT NULL,
	"to" text,
	"currently_studying" boolean DEFAULT false NOT NULL,
	"sort_key" integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE INDEX "blog_posts_created_at_idx" ON "blog_posts" USING btree ("created_at","id");--> statement-breakpoint
CREATE INDEX "job_experiences_sort_idx" ON "job_experiences" USING btree ("sort_key","id");--> statement-breakpoint
CREATE INDEX "studies_sort_idx" ON "studies" USING btree ("sort_key","id");