ALTER TABLE "oidc_login_states" ADD COLUMN "link_session_id" bigint;--> statement-breakpoint
ALTER TABLE "oidc_login_states" ADD COLUMN "browser_binding_hash" varchar(64);--> statement-breakpoint
ALTER TABLE "user_passkeys" ADD COLUMN "flagged_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "oidc_login_states" ADD CONSTRAINT "oidc_login_states_link_session_id_sessions_id_fk" FOREIGN KEY ("link_session_id") REFERENCES "public"."sessions"("id") ON DELETE no action ON UPDATE no action;