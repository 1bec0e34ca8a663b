CREATE TABLE "email_sequence_versions" (
	"sequence_id" integer NOT NULL,
	"version" integer NOT NULL,
	"flow_data" jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "email_sequence_versions_sequence_id_version_pk" PRIMARY KEY("sequence_id","version")
);
--> statement-breakpoint
CREATE TABLE "email_sequences" (
	"id" serial PRIMARY KEY NOT NULL,
	"user_id" uuid NOT NULL,
	"name" text NOT NULL,
	"description" text,
	"status" text DEFAULT 'draft' NOT NULL,
	"trigger_type" text DEFAULT 'signup' NOT NULL,
	"trigger_config" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"reentry" text DEFAULT 'once' NOT NULL,
	"reentry_cooldown_hours" integer,
	"trigger_checked_at" timestamp with time zone,
	"from_email" text,
	"from_name" text,
	"version" integer DEFAULT 1 NOT NULL,
	"flow_data" jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "sequence_enrolments" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"user_id" uuid NOT NULL,
	"sequence_id" integer NOT NULL,
	"version" integer NOT NULL,
	"contact_id" integer NOT NULL,
	"current_node_id" text NOT NULL,
	"state" text DEFAULT 'active' NOT NULL,
	"exit_reason" text,
	"next_run_at" timestamp with time zone,
	"step_count" integer DEFAULT 0 NOT NULL,
	"entered_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"finished_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "sequence_node_stats" (
	"sequence_id" integer NOT NULL,
	"node_id" text NOT NULL,
	"entered" integer DEFAULT 0 NOT NULL,
	"branched_else" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "sequence_node_stats_sequence_id_node_id_pk" PRIMARY KEY("sequence_id","node_id")
);
--> statement-breakpoint
CREATE TABLE "sequence_sends" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"user_id" uuid NOT NULL,
	"sequence_id" integer NOT NULL,
	"enrolment_id" bigint,
	"step" integer NOT NULL,
	"node_id" text NOT NULL,
	"contact_id" integer,
	"email" text NOT NULL,
	"status" text DEFAULT 'queued' NOT NULL,
	"claim_token" text,
	"claimed_at" timestamp with time zone,
	"attempts" integer DEFAULT 0 NOT NULL,
	"message_id" text,
	"error" text,
	"sent_at" timestamp with time zone,
	"opened_at" timestamp with time zone,
	"clicked_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "contact_segment_members" ADD COLUMN "added_at" timestamp with time zone DEFAULT now() NOT NULL;--> statement-breakpoint
ALTER TABLE "email_sequence_versions" ADD CONSTRAINT "email_sequence_versions_sequence_id_email_sequences_id_fk" FOREIGN KEY ("sequence_id") REFERENCES "public"."email_sequences"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "email_sequences" ADD CONSTRAINT "email_sequences_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sequence_enrolments" ADD CONSTRAINT "sequence_enrolments_sequence_id_email_sequences_id_fk" FOREIGN KEY ("sequence_id") REFERENCES "public"."email_sequences"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sequence_enrolments" ADD CONSTRAINT "sequence_enrolments_contact_id_contacts_id_fk" FOREIGN KEY ("contact_id") REFERENCES "public"."contacts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sequence_node_stats" ADD CONSTRAINT "sequence_node_stats_sequence_id_email_sequences_id_fk" FOREIGN KEY ("sequence_id") REFERENCES "public"."email_sequences"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sequence_sends" ADD CONSTRAINT "sequence_sends_sequence_id_email_sequences_id_fk" FOREIGN KEY ("sequence_id") REFERENCES "public"."email_sequences"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sequence_sends" ADD CONSTRAINT "sequence_sends_enrolment_id_sequence_enrolments_id_fk" FOREIGN KEY ("enrolment_id") REFERENCES "public"."sequence_enrolments"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sequence_sends" ADD CONSTRAINT "sequence_sends_contact_id_contacts_id_fk" FOREIGN KEY ("contact_id") REFERENCES "public"."contacts"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "email_sequences_user_idx" ON "email_sequences" USING btree ("user_id","created_at");--> statement-breakpoint
CREATE INDEX "sequence_enrolments_due_idx" ON "sequence_enrolments" USING btree ("next_run_at") WHERE state = 'active';--> statement-breakpoint
CREATE INDEX "sequence_enrolments_sequence_idx" ON "sequence_enrolments" USING btree ("sequence_id","state");--> statement-breakpoint
CREATE INDEX "sequence_enrolments_contact_idx" ON "sequence_enrolments" USING btree ("contact_id");--> statement-breakpoint
CREATE UNIQUE INDEX "sequence_enrolments_one_active_idx" ON "sequence_enrolments" USING btree ("sequence_id","contact_id") WHERE state = 'active';--> statement-breakpoint
CREATE UNIQUE INDEX "sequence_sends_enrolment_step_idx" ON "sequence_sends" USING btree ("enrolment_id","step");--> statement-breakpoint
CREATE INDEX "sequence_sends_sequence_node_idx" ON "sequence_sends" USING btree ("sequence_id","node_id");--> statement-breakpoint
CREATE INDEX "sequence_sends_status_idx" ON "sequence_sends" USING btree ("status","id");