CREATE TABLE "lead_generation_runs" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"profession" text NOT NULL,
	"location" text NOT NULL,
	"state" text DEFAULT 'queued' NOT NULL,
	"platforms" jsonb NOT NULL,
	"enrichment" jsonb,
	"created" integer DEFAULT 0 NOT NULL,
	"duplicates" integer DEFAULT 0 NOT NULL,
	"error" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"finished_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "lead_webhook_deliveries" (
	"source_id" integer NOT NULL,
	"signature" text NOT NULL,
	"received_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "leads" ADD COLUMN "business_keys" text[] DEFAULT '{}' NOT NULL;--> statement-breakpoint
ALTER TABLE "lead_generation_runs" ADD CONSTRAINT "lead_generation_runs_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "lead_webhook_deliveries" ADD CONSTRAINT "lead_webhook_deliveries_source_id_lead_sources_id_fk" FOREIGN KEY ("source_id") REFERENCES "public"."lead_sources"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "lead_generation_runs_user_idx" ON "lead_generation_runs" USING btree ("user_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "lead_webhook_deliveries_idx" ON "lead_webhook_deliveries" USING btree ("source_id","signature");--> statement-breakpoint
CREATE INDEX "leads_business_keys_idx" ON "leads" USING gin ("business_keys");