-- Since when nothing uses a media file (null: something did at the orphan purge's last look).
-- Existing files and every new upload start marked (now()); the purge clears the marks of files
-- in use and deletes files marked longer than its grace (app/features/media/orphans.server.ts).
ALTER TABLE "media" ADD COLUMN "unreferenced_since" timestamp with time zone DEFAULT now();