ALTER TABLE "email_events" ADD COLUMN "amount_cents" integer;--> statement-breakpoint
CREATE INDEX "email_events_user_type_idx" ON "email_events" USING btree ("user_id","type","created_at");