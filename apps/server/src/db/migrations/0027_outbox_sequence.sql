ALTER TABLE "outbox_messages" ADD COLUMN "sequence_id" integer;--> statement-breakpoint
ALTER TABLE "outbox_messages" ADD COLUMN "sequence_step" text;--> statement-breakpoint
ALTER TABLE "outbox_messages" ADD CONSTRAINT "outbox_messages_sequence_id_email_sequences_id_fk" FOREIGN KEY ("sequence_id") REFERENCES "public"."email_sequences"("id") ON DELETE set null ON UPDATE no action;