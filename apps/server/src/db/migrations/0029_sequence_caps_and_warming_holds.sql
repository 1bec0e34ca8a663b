CREATE TABLE "sequence_settings" (
	"user_id" uuid PRIMARY KEY NOT NULL,
	"max_emails_per_contact_per_day" integer DEFAULT 3 NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "sequence_sends" ADD COLUMN "warming_domain_id" integer;--> statement-breakpoint
ALTER TABLE "sequence_sends" ADD COLUMN "warming_day" text;--> statement-breakpoint
ALTER TABLE "sequence_settings" ADD CONSTRAINT "sequence_settings_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "campaign_sends_contact_sent_idx" ON "campaign_sends" USING btree ("contact_id","sent_at") WHERE contact_id IS NOT NULL AND sent_at IS NOT NULL;--> statement-breakpoint
CREATE INDEX "sequence_sends_contact_claimed_idx" ON "sequence_sends" USING btree ("contact_id","claimed_at") WHERE contact_id IS NOT NULL;