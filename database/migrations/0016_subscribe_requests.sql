-- Subscribe requests by client address, for the per-client limit of app/features/subscribers (every request counts alike).
CREATE TABLE "subscribe_requests" (
	"id" serial PRIMARY KEY NOT NULL,
	"client_address" text NOT NULL,
	"requested_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE INDEX "subscribe_requests_address_idx" ON "subscribe_requests" USING btree ("client_address","requested_at");--> statement-breakpoint
CREATE INDEX "subscribe_requests_requested_at_idx" ON "subscribe_requests" USING btree ("requested_at");