CREATE TABLE "request_replay_keys" (
	"digest" varchar(22) PRIMARY KEY NOT NULL,
	"expires_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE INDEX "request_replay_keys_expires_idx" ON "request_replay_keys" USING btree ("expires_at");