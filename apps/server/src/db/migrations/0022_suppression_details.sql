ALTER TABLE "suppressions" ADD COLUMN "id" serial NOT NULL;--> statement-breakpoint
ALTER TABLE "suppressions" ADD COLUMN "detail" text;--> statement-breakpoint
ALTER TABLE "suppressions" ADD COLUMN "campaign_id" integer;--> statement-breakpoint
ALTER TABLE "suppressions" ADD CONSTRAINT "suppressions_campaign_id_campaigns_id_fk" FOREIGN KEY ("campaign_id") REFERENCES "public"."campaigns"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "suppressions" ADD CONSTRAINT "suppressions_id_unique" UNIQUE("id");