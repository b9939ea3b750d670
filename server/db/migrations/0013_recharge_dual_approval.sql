CREATE TABLE "recharge_approvals" (
	"recharge_id" bigint NOT NULL,
	"operator_id" bigint NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	CONSTRAINT "recharge_approvals_recharge_id_operator_id_pk" PRIMARY KEY("recharge_id","operator_id")
);
--> statement-breakpoint
ALTER TABLE "wallet_recharges" ADD COLUMN "approvals_required" smallint DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE "recharge_approvals" ADD CONSTRAINT "recharge_approvals_recharge_id_wallet_recharges_id_fk" FOREIGN KEY ("recharge_id") REFERENCES "public"."wallet_recharges"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "recharge_approvals" ADD CONSTRAINT "recharge_approvals_operator_id_operators_id_fk" FOREIGN KEY ("operator_id") REFERENCES "public"."operators"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "wallet_recharges" ADD CONSTRAINT "wallet_recharges_approvals_required_range" CHECK ("wallet_recharges"."approvals_required" in (1, 2));