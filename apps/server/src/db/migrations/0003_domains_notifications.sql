CREATE TABLE "domain_daily_sends" (
	"domain_id" integer NOT NULL,
	"day" text NOT NULL,
	"sent" integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "domains" (
	"id" serial PRIMARY KEY NOT NULL,
	"user_id" uuid NOT NULL,
	"domain" text NOT NULL,
	"dkim_selector" text NOT NULL,
	"dkim_private_key_encrypted" text NOT NULL,
	"dkim_public_key" text NOT NULL,
	"spf_record" text NOT NULL,
	"dkim_record" text NOT NULL,
	"dmarc_record" text NOT NULL,
	"spf_status" text DEFAULT 'missing' NOT NULL,
	"dkim_status" text DEFAULT 'missing' NOT NULL,
	"dmarc_status" text DEFAULT 'missing' NOT NULL,
	"spf_found" text,
	"dkim_found" text,
	"dmarc_found" text,
	"is_verified" boolean DEFAULT false NOT NULL,
	"is_primary" boolean DEFAULT false NOT NULL,
	"verified_at" timestamp with time zone,
	"warming_started_at" timestamp with time zone,
	"last_checked_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "notifications" (
	"id" serial PRIMARY KEY NOT NULL,
	"user_id" uuid NOT NULL,
	"title" text NOT NULL,
	"body" text NOT NULL,
	"link" text,
	"read_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "domain_daily_sends" ADD CONSTRAINT "domain_daily_sends_domain_id_domains_id_fk" FOREIGN KEY ("domain_id") REFERENCES "public"."domains"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "domains" ADD CONSTRAINT "domains_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "notifications" ADD CONSTRAINT "notifications_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "domain_daily_sends_pk" ON "domain_daily_sends" USING btree ("domain_id","day");--> statement-breakpoint
CREATE UNIQUE INDEX "domains_user_domain_idx" ON "domains" USING btree ("user_id","domain");--> statement-breakpoint
CREATE INDEX "domains_check_idx" ON "domains" USING btree ("is_verified","last_checked_at");--> statement-breakpoint
CREATE INDEX "notifications_user_created_idx" ON "notifications" USING btree ("user_id","created_at");