ALTER TABLE "campaign_sends" ADD COLUMN "job_title" text;--> statement-breakpoint
ALTER TABLE "campaign_sends" ADD COLUMN "location" text;