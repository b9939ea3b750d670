CREATE TABLE "ledger_accounts" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"ledger" smallint NOT NULL,
	"owner_user_id" bigint,
	"asset" varchar(12) NOT NULL,
	"kind" varchar(24) NOT NULL,
	"shard" smallint DEFAULT 0 NOT NULL,
	"debits_must_not_exceed_credits" boolean NOT NULL,
	"credits_must_not_exceed_debits" boolean NOT NULL,
	"debits_pending" numeric(38, 0) DEFAULT 0 NOT NULL,
	"debits_posted" numeric(38, 0) DEFAULT 0 NOT NULL,
	"credits_pending" numeric(38, 0) DEFAULT 0 NOT NULL,
	"credits_posted" numeric(38, 0) DEFAULT 0 NOT NULL,
	"entry_count" bigint DEFAULT 0 NOT NULL,
	"chain_head" varchar(64) NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "ledger_accounts_key" UNIQUE NULLS NOT DISTINCT("ledger","owner_user_id","asset","kind","shard"),
	CONSTRAINT "ledger_accounts_id_ledger_asset_key" UNIQUE("id","ledger","asset"),
	CONSTRAINT "ledger_accounts_ledger_known" CHECK ("ledger_accounts"."ledger" in (1, 2)),
	CONSTRAINT "ledger_accounts_demo_kind_in_demo_ledger" CHECK ("ledger_accounts"."kind" <> 'demo' or "ledger_accounts"."ledger" = 2),
	CONSTRAINT "ledger_accounts_system_unsharded_owner" CHECK ("ledger_accounts"."owner_user_id" is null or "ledger_accounts"."shard" = 0),
	CONSTRAINT "ledger_accounts_totals_not_negative" CHECK ("ledger_accounts"."debits_pending" >= 0 and "ledger_accounts"."debits_posted" >= 0 and "ledger_accounts"."credits_pending" >= 0 and "ledger_accounts"."credits_posted" >= 0),
	CONSTRAINT "ledger_accounts_debits_within_credits" CHECK (not "ledger_accounts"."debits_must_not_exceed_credits" or "ledger_accounts"."debits_pending" + "ledger_accounts"."debits_posted" <= "ledger_accounts"."credits_posted"),
	CONSTRAINT "ledger_accounts_credits_within_debits" CHECK (not "ledger_accounts"."credits_must_not_exceed_debits" or "ledger_accounts"."credits_pending" + "ledger_accounts"."credits_posted" <= "ledger_accounts"."debits_posted")
);
--> statement-breakpoint
CREATE TABLE "ledger_assets" (
	"code" varchar(12) PRIMARY KEY NOT NULL,
	"name" varchar(64) NOT NULL,
	"scale" smallint NOT NULL,
	"transfer_amount_max" numeric(38, 0) NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "ledger_assets_scale_range" CHECK ("ledger_assets"."scale" between 0 and 18),
	CONSTRAINT "ledger_assets_code_format" CHECK ("ledger_assets"."code" ~ '^[A-Z0-9]{2,12}$'),
	CONSTRAINT "ledger_assets_transfer_amount_max_positive" CHECK ("ledger_assets"."transfer_amount_max" > 0)
);
--> statement-breakpoint
CREATE TABLE "ledger_transfers" (
	"id" varchar(64) PRIMARY KEY NOT NULL,
	"seq" bigserial NOT NULL,
	"ledger" smallint NOT NULL,
	"asset" varchar(12) NOT NULL,
	"debit_account_id" bigint NOT NULL,
	"credit_account_id" bigint NOT NULL,
	"amount" numeric(38, 0) NOT NULL,
	"kind" varchar(32) NOT NULL,
	"phase" varchar(8) NOT NULL,
	"pending_id" varchar(64),
	"reference" varchar(64) NOT NULL,
	"remark" varchar(200),
	"created_at" timestamp with time zone NOT NULL,
	"debit_entry_no" bigint NOT NULL,
	"credit_entry_no" bigint NOT NULL,
	"debit_balance_after" numeric(38, 0) NOT NULL,
	"credit_balance_after" numeric(38, 0) NOT NULL,
	"debit_chain_hash" varchar(64) NOT NULL,
	"credit_chain_hash" varchar(64) NOT NULL,
	CONSTRAINT "ledger_transfers_amount_positive" CHECK ("ledger_transfers"."amount" > 0),
	CONSTRAINT "ledger_transfers_accounts_differ" CHECK ("ledger_transfers"."debit_account_id" <> "ledger_transfers"."credit_account_id"),
	CONSTRAINT "ledger_transfers_phase_known" CHECK ("ledger_transfers"."phase" in ('single', 'pending', 'post', 'void')),
	CONSTRAINT "ledger_transfers_pending_id_iff_resolution" CHECK (("ledger_transfers"."phase" in ('post', 'void')) = ("ledger_transfers"."pending_id" is not null))
);
--> statement-breakpoint
ALTER TABLE "ledger_accounts" ADD CONSTRAINT "ledger_accounts_owner_user_id_users_id_fk" FOREIGN KEY ("owner_user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ledger_accounts" ADD CONSTRAINT "ledger_accounts_asset_ledger_assets_code_fk" FOREIGN KEY ("asset") REFERENCES "public"."ledger_assets"("code") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ledger_transfers" ADD CONSTRAINT "ledger_transfers_debit_account_fk" FOREIGN KEY ("debit_account_id","ledger","asset") REFERENCES "public"."ledger_accounts"("id","ledger","asset") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ledger_transfers" ADD CONSTRAINT "ledger_transfers_credit_account_fk" FOREIGN KEY ("credit_account_id","ledger","asset") REFERENCES "public"."ledger_accounts"("id","ledger","asset") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ledger_transfers" ADD CONSTRAINT "ledger_transfers_pending_fk" FOREIGN KEY ("pending_id") REFERENCES "public"."ledger_transfers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "ledger_accounts_owner_idx" ON "ledger_accounts" USING btree ("owner_user_id");--> statement-breakpoint
CREATE UNIQUE INDEX "ledger_transfers_seq_key" ON "ledger_transfers" USING btree ("seq");--> statement-breakpoint
CREATE UNIQUE INDEX "ledger_transfers_pending_id_key" ON "ledger_transfers" USING btree ("pending_id") WHERE "ledger_transfers"."pending_id" is not null;--> statement-breakpoint
CREATE INDEX "ledger_transfers_debit_idx" ON "ledger_transfers" USING btree ("debit_account_id","seq");--> statement-breakpoint
CREATE INDEX "ledger_transfers_credit_idx" ON "ledger_transfers" USING btree ("credit_account_id","seq");--> statement-breakpoint
CREATE INDEX "ledger_transfers_reference_idx" ON "ledger_transfers" USING btree ("reference");--> statement-breakpoint
-- Written by hand (drizzle-kit does not model triggers): transfers are append-only. A correction
-- is a new transfer; an UPDATE, DELETE or TRUNCATE of a transfer is refused by the database itself.
CREATE FUNCTION "ledger_transfers_refuse_change"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	RAISE EXCEPTION 'ledger transfers are immutable: % refused', TG_OP USING ERRCODE = 'restrict_violation';
END;
$$;--> statement-breakpoint
CREATE TRIGGER "ledger_transfers_append_only" BEFORE UPDATE OR DELETE ON "ledger_transfers"
	FOR EACH ROW EXECUTE FUNCTION "ledger_transfers_refuse_change"();--> statement-breakpoint
CREATE TRIGGER "ledger_transfers_no_truncate" BEFORE TRUNCATE ON "ledger_transfers"
	FOR EACH STATEMENT EXECUTE FUNCTION "ledger_transfers_refuse_change"();
