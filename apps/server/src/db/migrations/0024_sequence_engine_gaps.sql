CREATE TABLE "contact_tag_additions" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"user_id" uuid NOT NULL,
	"contact_id" integer NOT NULL,
	"tag" text NOT NULL,
	"added_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "email_events" ADD COLUMN "sequence_id" integer;--> statement-breakpoint
ALTER TABLE "email_events" ADD COLUMN "sequence_send_id" bigint;--> statement-breakpoint
ALTER TABLE "contact_tag_additions" ADD CONSTRAINT "contact_tag_additions_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "contact_tag_additions_user_tag_idx" ON "contact_tag_additions" USING btree ("user_id","tag","added_at");--> statement-breakpoint
ALTER TABLE "email_events" ADD CONSTRAINT "email_events_sequence_id_email_sequences_id_fk" FOREIGN KEY ("sequence_id") REFERENCES "public"."email_sequences"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "email_events_sequence_send_idx" ON "email_events" USING btree ("sequence_send_id","type","created_at") WHERE sequence_send_id IS NOT NULL;--> statement-breakpoint
CREATE INDEX "sequence_sends_message_id_idx" ON "sequence_sends" USING btree ("user_id","message_id") WHERE message_id IS NOT NULL;--> statement-breakpoint
-- The tag_added trigger's record: every tag a statement adds to a contact (a new contact's tags, or
-- tags an update adds to the old ones, compared without regard to case), for accounts with an active
-- tag_added sequence only. One statement-level trigger catches every writer of tags (the contact
-- form, bulk tagging, imports, lead capture, the API) without any of them knowing of sequences.
CREATE FUNCTION "record_tag_additions"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  -- Nothing to record while no account has an active tag_added sequence (the usual case): the
  -- statement's rows are not read at all.
  IF NOT EXISTS (SELECT 1 FROM "email_sequences" WHERE "trigger_type" = 'tag_added' AND "status" = 'active') THEN
    RETURN NULL;
  END IF;
  IF TG_OP = 'INSERT' THEN
    INSERT INTO "contact_tag_additions" ("user_id", "contact_id", "tag")
    SELECT DISTINCT n."user_id", n."id", lower(t.tag)
    FROM new_rows n CROSS JOIN LATERAL unnest(n."tags") AS t(tag)
    WHERE coalesce(t.tag, '') <> ''
      AND n."user_id" IN (SELECT q."user_id" FROM "email_sequences" q WHERE q."trigger_type" = 'tag_added' AND q."status" = 'active');
  ELSE
    INSERT INTO "contact_tag_additions" ("user_id", "contact_id", "tag")
    SELECT DISTINCT n."user_id", n."id", lower(t.tag)
    FROM new_rows n JOIN old_rows o ON o."id" = n."id" CROSS JOIN LATERAL unnest(n."tags") AS t(tag)
    WHERE n."tags" IS DISTINCT FROM o."tags" AND coalesce(t.tag, '') <> ''
      AND NOT (lower(t.tag) = ANY (SELECT lower(x) FROM unnest(o."tags") AS x))
      AND n."user_id" IN (SELECT q."user_id" FROM "email_sequences" q WHERE q."trigger_type" = 'tag_added' AND q."status" = 'active');
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER "contacts_tag_additions_insert" AFTER INSERT ON "contacts"
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "record_tag_additions"();
--> statement-breakpoint
CREATE TRIGGER "contacts_tag_additions_update" AFTER UPDATE ON "contacts"
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "record_tag_additions"();
