CREATE TABLE "login_throttles" (
	"email" text NOT NULL,
	"client" text NOT NULL,
	"attempts" integer NOT NULL,
	"last_attempt_at" timestamp with time zone NOT NULL,
	"next_attempt_at" timestamp with time zone,
	CONSTRAINT "login_throttles_email_client_pk" PRIMARY KEY("email","client")
);
--> statement-breakpoint
CREATE TABLE "rate_limit_windows" (
	"key" text PRIMARY KEY NOT NULL,
	"hits" integer NOT NULL,
	"window_ends_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
DROP TABLE "login_failures" CASCADE;--> statement-breakpoint
CREATE INDEX "login_throttles_last_attempt_at_idx" ON "login_throttles" USING btree ("last_attempt_at");--> statement-breakpoint
CREATE INDEX "rate_limit_windows_window_ends_at_idx" ON "rate_limit_windows" USING btree ("window_ends_at");