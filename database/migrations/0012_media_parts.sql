-- A stored file's bytes move into parts of 64 KB (MEDIA_PART_BYTES in database/schema.ts), one
-- row each: on the embedded database one statement over a whole file of megabytes held every
-- other query (the health check's too) for seconds, one over a part takes milliseconds.
CREATE TABLE "media_parts" (
	"hash" text NOT NULL,
	"seq" integer NOT NULL,
	"bytes" "bytea" NOT NULL,
	"created_at" timestamp with time zone DEFAULT now(),
	CONSTRAINT "media_parts_hash_seq_pk" PRIMARY KEY("hash","seq")
);
--> statement-breakpoint
-- Every stored file's bytes, cut into parts numbered from 0 (an empty file has none).
INSERT INTO "media_parts" ("hash", "seq", "bytes")
SELECT m."hash", s.seq, substring(m."bytes" FROM s.seq * 65536 + 1 FOR 65536)
FROM "media" m, generate_series(0, (length(m."bytes") + 65535) / 65536 - 1) AS s(seq);
--> statement-breakpoint
ALTER TABLE "media" DROP COLUMN "bytes";
--> statement-breakpoint
-- A deleted file's parts go with its row, and its hash is announced as before (migration 0010).
CREATE OR REPLACE FUNCTION media_after_delete() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM media_parts WHERE hash = OLD.hash;
  PERFORM pg_notify('media_deleted', OLD.hash);
  RETURN OLD;
END $$;
