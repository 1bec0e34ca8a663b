CREATE TABLE "webhook_replay_tokens" (
	"provider" text NOT NULL,
	"token" text NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	CONSTRAINT "webhook_replay_tokens_provider_token_pk" PRIMARY KEY("provider","token")
);
--> statement-breakpoint
CREATE TABLE "alias_auto_reply_hours" (
	"user_id" uuid NOT NULL,
	"hour" timestamp with time zone NOT NULL,
	"sent" integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
ALTER TABLE "srs_return_paths" ADD COLUMN "relayed_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "alias_auto_reply_hours" ADD CONSTRAINT "alias_auto_reply_hours_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "webhook_replay_tokens_expires_idx" ON "webhook_replay_tokens" USING btree ("expires_at");--> statement-breakpoint
CREATE UNIQUE INDEX "alias_auto_reply_hours_pk" ON "alias_auto_reply_hours" USING btree ("user_id","hour");