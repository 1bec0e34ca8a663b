CREATE TABLE "alias_auto_replies" (
	"alias_id" integer NOT NULL,
	"sender" text NOT NULL,
	"last_sent_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "alias_forwards" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"user_id" uuid NOT NULL,
	"alias_id" integer NOT NULL,
	"alias_message_id" bigint NOT NULL,
	"kind" text NOT NULL,
	"to_email" text NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"error" text,
	"claim_token" text,
	"claimed_at" timestamp with time zone,
	"sent_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "alias_messages" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"user_id" uuid NOT NULL,
	"alias_id" integer NOT NULL,
	"inbound_message_id" bigint NOT NULL,
	"message_id" text NOT NULL,
	"recipient" text NOT NULL,
	"from_address" text NOT NULL,
	"subject" text NOT NULL,
	"outcome" text NOT NULL,
	"detail" text NOT NULL,
	"rule_id" integer,
	"rule_name" text,
	"forwarded_to" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"auto_replied" boolean DEFAULT false NOT NULL,
	"is_test" boolean DEFAULT false NOT NULL,
	"received_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "email_aliases" (
	"id" serial PRIMARY KEY NOT NULL,
	"user_id" uuid NOT NULL,
	"domain_id" integer NOT NULL,
	"alias" text NOT NULL,
	"destination" text,
	"forwarding_type" text DEFAULT 'simple' NOT NULL,
	"description" text,
	"auto_reply" boolean DEFAULT false NOT NULL,
	"auto_reply_message" text,
	"is_active" boolean DEFAULT true NOT NULL,
	"round_robin_cursor" bigint DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "forward_addresses" (
	"id" serial PRIMARY KEY NOT NULL,
	"user_id" uuid NOT NULL,
	"email" text NOT NULL,
	"confirmed_at" timestamp with time zone,
	"confirmation_sent_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "forwarding_destinations" (
	"id" serial PRIMARY KEY NOT NULL,
	"user_id" uuid NOT NULL,
	"alias_id" integer NOT NULL,
	"email" text NOT NULL,
	"name" text,
	"weight" integer DEFAULT 1 NOT NULL,
	"is_active" boolean DEFAULT true NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "forwarding_rules" (
	"id" serial PRIMARY KEY NOT NULL,
	"user_id" uuid NOT NULL,
	"alias_id" integer NOT NULL,
	"name" text NOT NULL,
	"priority" integer NOT NULL,
	"is_active" boolean DEFAULT true NOT NULL,
	"conditions" jsonb NOT NULL,
	"actions" jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "inbound_messages" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"message_id" text NOT NULL,
	"mail_from" text NOT NULL,
	"via" text NOT NULL,
	"raw" "bytea" NOT NULL,
	"received_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "srs_return_paths" (
	"address" text PRIMARY KEY NOT NULL,
	"user_id" uuid NOT NULL,
	"original_sender" text NOT NULL,
	"bounces_relayed" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "alias_auto_replies" ADD CONSTRAINT "alias_auto_replies_alias_id_email_aliases_id_fk" FOREIGN KEY ("alias_id") REFERENCES "public"."email_aliases"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "alias_forwards" ADD CONSTRAINT "alias_forwards_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "alias_forwards" ADD CONSTRAINT "alias_forwards_alias_id_email_aliases_id_fk" FOREIGN KEY ("alias_id") REFERENCES "public"."email_aliases"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "alias_forwards" ADD CONSTRAINT "alias_forwards_alias_message_id_alias_messages_id_fk" FOREIGN KEY ("alias_message_id") REFERENCES "public"."alias_messages"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "alias_messages" ADD CONSTRAINT "alias_messages_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "alias_messages" ADD CONSTRAINT "alias_messages_alias_id_email_aliases_id_fk" FOREIGN KEY ("alias_id") REFERENCES "public"."email_aliases"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "alias_messages" ADD CONSTRAINT "alias_messages_inbound_message_id_inbound_messages_id_fk" FOREIGN KEY ("inbound_message_id") REFERENCES "public"."inbound_messages"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "email_aliases" ADD CONSTRAINT "email_aliases_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "email_aliases" ADD CONSTRAINT "email_aliases_domain_id_domains_id_fk" FOREIGN KEY ("domain_id") REFERENCES "public"."domains"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "forward_addresses" ADD CONSTRAINT "forward_addresses_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "forwarding_destinations" ADD CONSTRAINT "forwarding_destinations_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "forwarding_destinations" ADD CONSTRAINT "forwarding_destinations_alias_id_email_aliases_id_fk" FOREIGN KEY ("alias_id") REFERENCES "public"."email_aliases"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "forwarding_rules" ADD CONSTRAINT "forwarding_rules_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "forwarding_rules" ADD CONSTRAINT "forwarding_rules_alias_id_email_aliases_id_fk" FOREIGN KEY ("alias_id") REFERENCES "public"."email_aliases"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "srs_return_paths" ADD CONSTRAINT "srs_return_paths_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "alias_auto_replies_pk" ON "alias_auto_replies" USING btree ("alias_id","sender");--> statement-breakpoint
CREATE UNIQUE INDEX "alias_forwards_message_kind_to_idx" ON "alias_forwards" USING btree ("alias_message_id","kind","to_email");--> statement-breakpoint
CREATE INDEX "alias_forwards_alias_created_idx" ON "alias_forwards" USING btree ("alias_id","created_at");--> statement-breakpoint
CREATE INDEX "alias_forwards_status_idx" ON "alias_forwards" USING btree ("status","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "alias_messages_alias_message_idx" ON "alias_messages" USING btree ("alias_id","message_id");--> statement-breakpoint
CREATE INDEX "alias_messages_alias_received_idx" ON "alias_messages" USING btree ("alias_id","received_at");--> statement-breakpoint
CREATE UNIQUE INDEX "email_aliases_domain_alias_idx" ON "email_aliases" USING btree ("domain_id","alias");--> statement-breakpoint
CREATE INDEX "email_aliases_user_idx" ON "email_aliases" USING btree ("user_id");--> statement-breakpoint
CREATE UNIQUE INDEX "forward_addresses_user_email_idx" ON "forward_addresses" USING btree ("user_id","email");--> statement-breakpoint
CREATE UNIQUE INDEX "forwarding_destinations_alias_email_idx" ON "forwarding_destinations" USING btree ("alias_id","email");--> statement-breakpoint
CREATE INDEX "forwarding_rules_alias_idx" ON "forwarding_rules" USING btree ("alias_id","priority");