CREATE TABLE "withdraw_passwords" (
	"user_id" bigint PRIMARY KEY NOT NULL,
	"password_hash" text NOT NULL,
	"updated_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "withdrawal_approvals" (
	"withdrawal_id" bigint NOT NULL,
	"operator_id" bigint NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	CONSTRAINT "withdrawal_approvals_withdrawal_id_operator_id_pk" PRIMARY KEY("withdrawal_id","operator_id")
);
--> statement-breakpoint
CREATE TABLE "withdrawal_destinations" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"user_id" bigint NOT NULL,
	"type" varchar(8) NOT NULL,
	"bank_name" varchar(64),
	"real_name" varchar(64),
	"card_number" varchar(34),
	"currency" varchar(12),
	"network" varchar(16),
	"address" varchar(100),
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone NOT NULL,
	CONSTRAINT "withdrawal_destinations_type_known" CHECK ("withdrawal_destinations"."type" in ('bank', 'chain')),
	CONSTRAINT "withdrawal_destinations_fields_of_type" CHECK (case when "withdrawal_destinations"."type" = 'bank'
    then "withdrawal_destinations"."bank_name" is not null and "withdrawal_destinations"."real_name" is not null and "withdrawal_destinations"."card_number" is not null
      and "withdrawal_destinations"."currency" is null and "withdrawal_destinations"."network" is null and "withdrawal_destinations"."address" is null
    else "withdrawal_destinations"."currency" is not null and "withdrawal_destinations"."network" is not null and "withdrawal_destinations"."address" is not null
      and "withdrawal_destinations"."bank_name" is null and "withdrawal_destinations"."real_name" is null and "withdrawal_destinations"."card_number" is null end)
);
--> statement-breakpoint
CREATE TABLE "withdrawal_settings" (
	"currency" varchar(12) PRIMARY KEY NOT NULL,
	"dual_approval_above" numeric(38, 0) NOT NULL,
	"updated_at" timestamp with time zone NOT NULL,
	CONSTRAINT "withdrawal_settings_threshold_not_negative" CHECK ("withdrawal_settings"."dual_approval_above" >= 0)
);
--> statement-breakpoint
CREATE TABLE "withdrawals" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"user_id" bigint NOT NULL,
	"currency" varchar(12) NOT NULL,
	"network" varchar(16) NOT NULL,
	"amount" numeric(38, 0) NOT NULL,
	"fee" numeric(38, 0) NOT NULL,
	"destination_id" bigint NOT NULL,
	"destination_type" varchar(8) NOT NULL,
	"bank_name" varchar(64),
	"real_name" varchar(64),
	"card_number" varchar(34),
	"address" varchar(100),
	"status" smallint DEFAULT 0 NOT NULL,
	"reason" varchar(200),
	"payout_reference" varchar(128),
	"hold_transfer_id" varchar(64) NOT NULL,
	"approvals_required" smallint NOT NULL,
	"approved_at" timestamp with time zone,
	"decided_at" timestamp with time zone,
	"decided_by" bigint,
	"created_at" timestamp with time zone NOT NULL,
	CONSTRAINT "withdrawals_status_known" CHECK ("withdrawals"."status" in (0, -1, 2, -2)),
	CONSTRAINT "withdrawals_amount_positive" CHECK ("withdrawals"."amount" > 0 and "withdrawals"."fee" >= 0),
	CONSTRAINT "withdrawals_approvals_required_range" CHECK ("withdrawals"."approvals_required" in (1, 2)),
	CONSTRAINT "withdrawals_decided" CHECK (("withdrawals"."status" = 0) = ("withdrawals"."decided_at" is null)),
	CONSTRAINT "withdrawals_paid_or_failed_after_approval" CHECK ("withdrawals"."status" not in (2, -2) or "withdrawals"."approved_at" is not null)
);
--> statement-breakpoint
ALTER TABLE "withdraw_passwords" ADD CONSTRAINT "withdraw_passwords_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "withdrawal_approvals" ADD CONSTRAINT "withdrawal_approvals_withdrawal_id_withdrawals_id_fk" FOREIGN KEY ("withdrawal_id") REFERENCES "public"."withdrawals"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "withdrawal_approvals" ADD CONSTRAINT "withdrawal_approvals_operator_id_operators_id_fk" FOREIGN KEY ("operator_id") REFERENCES "public"."operators"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "withdrawal_destinations" ADD CONSTRAINT "withdrawal_destinations_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "withdrawal_destinations" ADD CONSTRAINT "withdrawal_destinations_currency_ledger_assets_code_fk" FOREIGN KEY ("currency") REFERENCES "public"."ledger_assets"("code") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "withdrawal_settings" ADD CONSTRAINT "withdrawal_settings_currency_ledger_assets_code_fk" FOREIGN KEY ("currency") REFERENCES "public"."ledger_assets"("code") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "withdrawals" ADD CONSTRAINT "withdrawals_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "withdrawals" ADD CONSTRAINT "withdrawals_currency_ledger_assets_code_fk" FOREIGN KEY ("currency") REFERENCES "public"."ledger_assets"("code") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "withdrawals" ADD CONSTRAINT "withdrawals_destination_id_withdrawal_destinations_id_fk" FOREIGN KEY ("destination_id") REFERENCES "public"."withdrawal_destinations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "withdrawal_destinations_user_idx" ON "withdrawal_destinations" USING btree ("user_id","id");--> statement-breakpoint
CREATE INDEX "withdrawals_user_idx" ON "withdrawals" USING btree ("user_id","id");--> statement-breakpoint
CREATE INDEX "withdrawals_status_idx" ON "withdrawals" USING btree ("status","id");--> statement-breakpoint
CREATE UNIQUE INDEX "withdrawals_hold_transfer_key" ON "withdrawals" USING btree ("hold_transfer_id");--> statement-breakpoint
ALTER TABLE "wallet_recharges" ADD CONSTRAINT "wallet_recharges_decided_by_operators_id_fk" FOREIGN KEY ("decided_by") REFERENCES "public"."operators"("id") ON DELETE no action ON UPDATE no action;