ALTER TABLE "campaign_sends" ADD COLUMN "claim_token" text;--> statement-breakpoint
ALTER TABLE "campaign_sends" ADD COLUMN "claimed_at" timestamp with time zone;