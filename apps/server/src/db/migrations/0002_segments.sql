CREATE TABLE "contact_segment_members" (
	"segment_id" integer NOT NULL,
	"contact_id" integer NOT NULL,
	CONSTRAINT "contact_segment_members_segment_id_contact_id_pk" PRIMARY KEY("segment_id","contact_id")
);
--> statement-breakpoint
CREATE TABLE "contact_segments" (
	"id" serial PRIMARY KEY NOT NULL,
	"user_id" uuid NOT NULL,
	"name" text NOT NULL,
	"description" text,
	"is_active" boolean DEFAULT true NOT NULL,
	"is_auto_update" boolean DEFAULT false NOT NULL,
	"conditions" jsonb NOT NULL,
	"contact_count" integer DEFAULT 0 NOT NULL,
	"last_updated_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "contact_segment_members" ADD CONSTRAINT "contact_segment_members_segment_id_contact_segments_id_fk" FOREIGN KEY ("segment_id") REFERENCES "public"."contact_segments"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "contact_segment_members" ADD CONSTRAINT "contact_segment_members_contact_id_contacts_id_fk" FOREIGN KEY ("contact_id") REFERENCES "public"."contacts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "contact_segments" ADD CONSTRAINT "contact_segments_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "contact_segment_members_contact_idx" ON "contact_segment_members" USING btree ("contact_id");--> statement-breakpoint
CREATE INDEX "contact_segments_user_idx" ON "contact_segments" USING btree ("user_id");