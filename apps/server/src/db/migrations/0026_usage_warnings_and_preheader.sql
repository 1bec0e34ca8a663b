CREATE TABLE "usage_warnings_sent" (
	"user_id" uuid NOT NULL,
	"kind" text NOT NULL,
	"threshold" real NOT NULL,
	"period" text NOT NULL,
	"sent_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "usage_warnings_sent_user_id_kind_threshold_period_pk" PRIMARY KEY("user_id","kind","threshold","period")
);
--> statement-breakpoint
ALTER TABLE "campaigns" ADD COLUMN "preheader" text;--> statement-breakpoint
ALTER TABLE "usage_warnings_sent" ADD CONSTRAINT "usage_warnings_sent_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;