-- One word per concept: education was stored as "studies", and an entry that is still going as
-- "current_job" or "currently_studying". Renamed in place, so every row, id and sort order stays,
-- the id sequence goes on where it was, and the trigger keeps notifying "education"
-- (migration 0005). Backups written before this name the old table and columns; reading one
-- maps them (database/backup.server.ts).
ALTER TABLE "studies" RENAME TO "education";
--> statement-breakpoint
ALTER SEQUENCE "studies_id_seq" RENAME TO "education_id_seq";
--> statement-breakpoint
ALTER TABLE "education" RENAME CONSTRAINT "studies_pkey" TO "education_pkey";
--> statement-breakpoint
ALTER INDEX "studies_sort_idx" RENAME TO "education_sort_idx";
--> statement-breakpoint
ALTER TRIGGER "studies_page_cache" ON "education" RENAME TO "education_page_cache";
--> statement-breakpoint
ALTER TABLE "education" RENAME COLUMN "currently_studying" TO "current";
--> statement-breakpoint
ALTER TABLE "job_experiences" RENAME COLUMN "current_job" TO "current";
