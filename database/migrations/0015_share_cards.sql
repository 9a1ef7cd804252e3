-- Share cards (app/features/cards): each published or scheduled post's card and the home page's,
-- as {hash, key}: the PNG's media row and the fingerprint of what it shows. Writing one to the row
-- drops the cached pages that name it (migration 0004's triggers), and the orphan purge counts it
-- as a use of the file (app/features/media/orphans.server.ts).
ALTER TABLE "blog_posts" ADD COLUMN "share_card" jsonb;--> statement-breakpoint
ALTER TABLE "profile" ADD COLUMN "share_card" jsonb;
