ALTER TABLE "campaigns" ADD COLUMN "machine_opens" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "campaigns" ADD COLUMN "bot_clicks" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "email_events" ADD COLUMN "machine" boolean DEFAULT false NOT NULL;--> statement-breakpoint
CREATE INDEX "email_events_send_idx" ON "email_events" USING btree ("send_id","type") WHERE send_id IS NOT NULL;