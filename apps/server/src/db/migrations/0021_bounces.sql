CREATE TABLE "bounce_settings" (
	"user_id" uuid PRIMARY KEY NOT NULL,
	"suppress_hard_bounces" boolean DEFAULT true NOT NULL,
	"soft_bounce_limit" integer DEFAULT 3 NOT NULL,
	"soft_bounce_window_days" integer DEFAULT 30 NOT NULL,
	"unsubscribe_on_complaint" boolean DEFAULT true NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "email_events" ADD COLUMN "reason" text;--> statement-breakpoint
ALTER TABLE "bounce_settings" ADD CONSTRAINT "bounce_settings_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;