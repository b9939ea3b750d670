CREATE TABLE "dual_control_decisions" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"kind" varchar(24) NOT NULL,
	"subject_id" bigint NOT NULL,
	"user_id" bigint,
	"solo_operator_id" bigint,
	"approvals" smallint NOT NULL,
	"asset" varchar(16) NOT NULL,
	"amount" numeric(38, 0) NOT NULL,
	"value_usdt" numeric(38, 0),
	"price_source" varchar(40),
	"decided_at" timestamp with time zone NOT NULL,
	"voided_at" timestamp with time zone,
	CONSTRAINT "dual_control_decisions_subject_unique" UNIQUE("kind","subject_id")
);
--> statement-breakpoint
CREATE TABLE "setting_changes" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"setting" varchar(32) NOT NULL,
	"target" varchar(64) NOT NULL,
	"before" jsonb,
	"after" jsonb NOT NULL,
	"status" varchar(12) NOT NULL,
	"requested_by" bigint NOT NULL,
	"decided_by" bigint,
	"reason" varchar(300),
	"created_at" timestamp with time zone NOT NULL,
	"decided_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "dual_control_decisions" ADD CONSTRAINT "dual_control_decisions_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "dual_control_decisions" ADD CONSTRAINT "dual_control_decisions_solo_operator_id_operators_id_fk" FOREIGN KEY ("solo_operator_id") REFERENCES "public"."operators"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "setting_changes" ADD CONSTRAINT "setting_changes_requested_by_operators_id_fk" FOREIGN KEY ("requested_by") REFERENCES "public"."operators"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "setting_changes" ADD CONSTRAINT "setting_changes_decided_by_operators_id_fk" FOREIGN KEY ("decided_by") REFERENCES "public"."operators"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "dual_control_decisions_user_idx" ON "dual_control_decisions" USING btree ("user_id","decided_at");--> statement-breakpoint
CREATE INDEX "dual_control_decisions_operator_idx" ON "dual_control_decisions" USING btree ("solo_operator_id","decided_at");--> statement-breakpoint
CREATE INDEX "setting_changes_status_idx" ON "setting_changes" USING btree ("status","id");--> statement-breakpoint
-- The last 24 hours of decisions made before this table existed, so the windows hold across the upgrade (USDT at par; other currencies uncounted in USDT).
INSERT INTO "dual_control_decisions" ("kind", "subject_id", "user_id", "solo_operator_id", "approvals", "asset", "amount", "value_usdt", "price_source", "decided_at")
SELECT 'deposit', r."id", r."user_id", CASE WHEN (SELECT count(*) FROM "recharge_approvals" a WHERE a."recharge_id" = r."id") = 1 THEN (SELECT a."operator_id" FROM "recharge_approvals" a WHERE a."recharge_id" = r."id" LIMIT 1) END,
  greatest(1, (SELECT count(*) FROM "recharge_approvals" a WHERE a."recharge_id" = r."id")), r."currency", r."amount", CASE WHEN r."currency" = 'USDT' THEN r."amount" END, CASE WHEN r."currency" = 'USDT' THEN 'par' END, r."decided_at"
FROM "wallet_recharges" r WHERE r."status" = 1 AND r."decided_at" > now() - interval '24 hours';
--> statement-breakpoint
INSERT INTO "dual_control_decisions" ("kind", "subject_id", "user_id", "solo_operator_id", "approvals", "asset", "amount", "value_usdt", "price_source", "decided_at")
SELECT 'withdrawal', w."id", w."user_id", CASE WHEN (SELECT count(*) FROM "withdrawal_approvals" a WHERE a."withdrawal_id" = w."id") = 1 THEN (SELECT a."operator_id" FROM "withdrawal_approvals" a WHERE a."withdrawal_id" = w."id" LIMIT 1) END,
  greatest(1, (SELECT count(*) FROM "withdrawal_approvals" a WHERE a."withdrawal_id" = w."id")), w."currency", w."amount", CASE WHEN w."currency" = 'USDT' THEN w."amount" END, CASE WHEN w."currency" = 'USDT' THEN 'par' END, w."approved_at"
FROM "withdrawals" w WHERE w."status" IN (0, 2) AND w."approved_at" IS NOT NULL AND w."approved_at" > now() - interval '24 hours';
