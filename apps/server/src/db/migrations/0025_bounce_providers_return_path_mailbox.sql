CREATE TABLE "bounce_mailbox_status" (
	"mailbox" text PRIMARY KEY NOT NULL,
	"last_polled_at" timestamp with time zone NOT NULL,
	"last_success_at" timestamp with time zone,
	"error" text,
	"processed_count" integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "bounce_provider_secrets" (
	"user_id" uuid NOT NULL,
	"provider" text NOT NULL,
	"secret_sealed" text NOT NULL,
	"hint" text NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "bounce_provider_secrets_user_id_provider_pk" PRIMARY KEY("user_id","provider")
);
--> statement-breakpoint
ALTER TABLE "domains" ADD COLUMN "bounce_mx_status" text DEFAULT 'missing' NOT NULL;--> statement-breakpoint
ALTER TABLE "domains" ADD COLUMN "bounce_mx_found" text;--> statement-breakpoint
ALTER TABLE "domains" ADD COLUMN "bounce_spf_status" text DEFAULT 'missing' NOT NULL;--> statement-breakpoint
ALTER TABLE "domains" ADD COLUMN "bounce_spf_found" text;--> statement-breakpoint
ALTER TABLE "bounce_provider_secrets" ADD CONSTRAINT "bounce_provider_secrets_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;