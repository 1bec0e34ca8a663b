CREATE TABLE "sunset_contacts" (
	"contact_id" integer PRIMARY KEY NOT NULL,
	"user_id" uuid NOT NULL,
	"started_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "sunset_policies" (
	"user_id" uuid PRIMARY KEY NOT NULL,
	"enabled" boolean NOT NULL,
	"inactive_days" integer NOT NULL,
	"min_messages" integer NOT NULL,
	"grace_days" integer NOT NULL,
	"reengagement_sequence_id" integer,
	"last_run_at" timestamp with time zone,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "sunset_contacts" ADD CONSTRAINT "sunset_contacts_contact_id_contacts_id_fk" FOREIGN KEY ("contact_id") REFERENCES "public"."contacts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sunset_policies" ADD CONSTRAINT "sunset_policies_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sunset_policies" ADD CONSTRAINT "sunset_policies_reengagement_sequence_id_email_sequences_id_fk" FOREIGN KEY ("reengagement_sequence_id") REFERENCES "public"."email_sequences"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "sunset_contacts_user_started_idx" ON "sunset_contacts" USING btree ("user_id","started_at");