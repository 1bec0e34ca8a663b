-- Senders are proven: an account's own address is confirmed by a mailed link (users.email_confirmed_at),
-- single sender addresses likewise (sender_addresses), and editor test mails are logged for the hourly
-- limit and the plan's monthly count (campaign_test_sends). Existing accounts are not marked confirmed:
-- their owners never proved the address either, and the app asks them to (a banner with a resend link).
CREATE TABLE "campaign_test_sends" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"user_id" uuid NOT NULL,
	"campaign_id" integer,
	"email" text NOT NULL,
	"sent_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "sender_addresses" (
	"id" serial PRIMARY KEY NOT NULL,
	"user_id" uuid NOT NULL,
	"email" text NOT NULL,
	"confirmed_at" timestamp with time zone,
	"confirmation_sent_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "sender_confirmation_mails" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"user_id" uuid NOT NULL,
	"email" text NOT NULL,
	"sent_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "email_confirmed_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "email_confirmation_sent_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "campaign_test_sends" ADD CONSTRAINT "campaign_test_sends_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "campaign_test_sends" ADD CONSTRAINT "campaign_test_sends_campaign_id_campaigns_id_fk" FOREIGN KEY ("campaign_id") REFERENCES "public"."campaigns"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sender_addresses" ADD CONSTRAINT "sender_addresses_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sender_confirmation_mails" ADD CONSTRAINT "sender_confirmation_mails_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "campaign_test_sends_user_sent_idx" ON "campaign_test_sends" USING btree ("user_id","sent_at");--> statement-breakpoint
CREATE UNIQUE INDEX "sender_addresses_user_email_idx" ON "sender_addresses" USING btree ("user_id","email");--> statement-breakpoint
CREATE INDEX "sender_confirmation_mails_user_sent_idx" ON "sender_confirmation_mails" USING btree ("user_id","sent_at");