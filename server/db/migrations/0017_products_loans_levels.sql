CREATE TABLE "job_runs" (
	"name" varchar(32) NOT NULL,
	"day" varchar(10) NOT NULL,
	"operator_id" bigint,
	"state" varchar(8) NOT NULL,
	"result" jsonb,
	"started_at" timestamp with time zone NOT NULL,
	"finished_at" timestamp with time zone,
	CONSTRAINT "job_runs_name_day_pk" PRIMARY KEY("name","day"),
	CONSTRAINT "job_runs_state_known" CHECK ("job_runs"."state" in ('running', 'done', 'failed'))
);
--> statement-breakpoint
CREATE TABLE "loan_settings" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"type" varchar(6) NOT NULL,
	"asset" varchar(12) NOT NULL,
	"collateral_asset" varchar(12),
	"daily_rate_ppm" integer NOT NULL,
	"penalty_rate_ppm" integer NOT NULL,
	"min_days" integer NOT NULL,
	"max_days" integer NOT NULL,
	"min_amount" numeric(38, 0) NOT NULL,
	"max_amount" numeric(38, 0) NOT NULL,
	"initial_ltv_bp" integer,
	"margin_call_ltv_bp" integer,
	"liquidation_ltv_bp" integer,
	"liquidation_fee_bp" integer,
	"enabled" boolean DEFAULT true NOT NULL,
	"updated_at" timestamp with time zone NOT NULL,
	CONSTRAINT "loan_settings_type_known" CHECK ("loan_settings"."type" in ('credit', 'pledge')),
	CONSTRAINT "loan_settings_pledge_ltvs" CHECK ("loan_settings"."type" = 'credit' or ("loan_settings"."collateral_asset" is not null and "loan_settings"."initial_ltv_bp" < "loan_settings"."margin_call_ltv_bp" and "loan_settings"."margin_call_ltv_bp" < "loan_settings"."liquidation_ltv_bp" and "loan_settings"."liquidation_ltv_bp" < 10000))
);
--> statement-breakpoint
CREATE TABLE "loans" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"user_id" bigint NOT NULL,
	"setting_id" bigint NOT NULL,
	"type" varchar(6) NOT NULL,
	"client_order_id" varchar(64) NOT NULL,
	"asset" varchar(12) NOT NULL,
	"amount" numeric(38, 0) NOT NULL,
	"days" integer NOT NULL,
	"daily_rate_ppm" integer NOT NULL,
	"penalty_rate_ppm" integer NOT NULL,
	"status" varchar(10) NOT NULL,
	"collateral_asset" varchar(12),
	"collateral" numeric(38, 0),
	"signature_upload_id" varchar(32),
	"terms" text NOT NULL,
	"terms_hash" varchar(64) NOT NULL,
	"signed_at" timestamp with time zone NOT NULL,
	"reject_reason" varchar(300),
	"reviewed_by" bigint,
	"reviewed_at" timestamp with time zone,
	"starts_at" timestamp with time zone,
	"due_at" timestamp with time zone,
	"interest" numeric(38, 0) DEFAULT 0 NOT NULL,
	"repaid" numeric(38, 0) DEFAULT 0 NOT NULL,
	"last_accrued_day" varchar(10),
	"margin_called_at" timestamp with time zone,
	"liquidation" jsonb,
	"closed_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "loans_type_known" CHECK ("loans"."type" in ('credit', 'pledge')),
	CONSTRAINT "loans_status_known" CHECK ("loans"."status" in ('pending', 'rejected', 'active', 'repaid', 'liquidated'))
);
--> statement-breakpoint
CREATE TABLE "mining_rewards" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"asset" varchar(12) NOT NULL,
	"day" varchar(10) NOT NULL,
	"reward_per_ths_day" numeric(38, 0) NOT NULL,
	"electricity_per_kwh" numeric(38, 0) NOT NULL,
	"source" varchar(200) NOT NULL,
	"published_by" bigint,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "product_accruals" (
	"order_id" bigint NOT NULL,
	"day" varchar(10) NOT NULL,
	"amount" numeric(38, 0) NOT NULL,
	"inputs" jsonb NOT NULL,
	"transfer_id" varchar(64) NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "product_accruals_order_id_day_pk" PRIMARY KEY("order_id","day")
);
--> statement-breakpoint
CREATE TABLE "product_orders" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"user_id" bigint NOT NULL,
	"product_id" bigint NOT NULL,
	"client_order_id" varchar(64) NOT NULL,
	"amount" numeric(38, 0) NOT NULL,
	"quantity" integer DEFAULT 1 NOT NULL,
	"status" varchar(12) NOT NULL,
	"daily_rate_ppm" integer NOT NULL,
	"days" integer NOT NULL,
	"starts_at" timestamp with time zone NOT NULL,
	"ends_at" timestamp with time zone NOT NULL,
	"accrued" numeric(38, 0) DEFAULT 0 NOT NULL,
	"owed" numeric(38, 0) DEFAULT 0 NOT NULL,
	"last_accrued_day" varchar(10),
	"frozen_reason" varchar(300),
	"ended_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "product_orders_status_known" CHECK ("product_orders"."status" in ('not_started', 'running', 'ended', 'frozen', 'cancelled'))
);
--> statement-breakpoint
CREATE TABLE "product_reserve_approvals" (
	"funding_id" bigint NOT NULL,
	"operator_id" bigint NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "product_reserve_approvals_funding_id_operator_id_pk" PRIMARY KEY("funding_id","operator_id")
);
--> statement-breakpoint
CREATE TABLE "product_reserve_fundings" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"product_id" bigint NOT NULL,
	"amount" numeric(38, 0) NOT NULL,
	"status" varchar(8) NOT NULL,
	"approvals_required" smallint NOT NULL,
	"requested_by" bigint NOT NULL,
	"transfer_id" varchar(64),
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"completed_at" timestamp with time zone,
	CONSTRAINT "product_reserve_fundings_status_known" CHECK ("product_reserve_fundings"."status" in ('pending', 'done', 'rejected'))
);
--> statement-breakpoint
CREATE TABLE "products" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"type" varchar(10) NOT NULL,
	"name" varchar(80) NOT NULL,
	"names" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"asset" varchar(12) NOT NULL,
	"payout_asset" varchar(12) NOT NULL,
	"status" varchar(8) DEFAULT 'open' NOT NULL,
	"days" integer NOT NULL,
	"daily_rate_ppm" integer DEFAULT 0 NOT NULL,
	"first_day_rule" varchar(10) DEFAULT 'next_day' NOT NULL,
	"min_level" smallint DEFAULT 0 NOT NULL,
	"min_amount" numeric(38, 0) NOT NULL,
	"max_amount" numeric(38, 0) NOT NULL,
	"per_user_max" numeric(38, 0) DEFAULT 0 NOT NULL,
	"total_cap" numeric(38, 0) DEFAULT 0 NOT NULL,
	"early_redeem" boolean DEFAULT false NOT NULL,
	"early_redeem_fee_ppm" integer DEFAULT 0 NOT NULL,
	"target" numeric(38, 0),
	"opens_at" timestamp with time zone,
	"closes_at" timestamp with time zone,
	"machine" jsonb,
	"unit_price" numeric(38, 0),
	"sold" numeric(38, 0) DEFAULT 0 NOT NULL,
	"reserve" numeric(38, 0) DEFAULT 0 NOT NULL,
	"owed" numeric(38, 0) DEFAULT 0 NOT NULL,
	"principal" numeric(38, 0) DEFAULT 0 NOT NULL,
	"paid" numeric(38, 0) DEFAULT 0 NOT NULL,
	"created_by" bigint,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone NOT NULL,
	CONSTRAINT "products_type_known" CHECK ("products"."type" in ('arbitrage', 'quant', 'mining', 'bond')),
	CONSTRAINT "products_status_known" CHECK ("products"."status" in ('draft', 'open', 'closed', 'raised', 'failed')),
	CONSTRAINT "products_first_day_known" CHECK ("products"."first_day_rule" in ('full', 'next_day')),
	CONSTRAINT "products_figures_non_negative" CHECK ("products"."reserve" >= 0 and "products"."owed" >= 0 and "products"."principal" >= 0 and "products"."sold" >= 0)
);
--> statement-breakpoint
CREATE TABLE "user_levels" (
	"user_id" bigint PRIMARY KEY NOT NULL,
	"level" smallint NOT NULL,
	"highest_level" smallint NOT NULL,
	"assets" numeric(38, 0) NOT NULL,
	"checked_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "vip_levels" (
	"level" smallint PRIMARY KEY NOT NULL,
	"name" varchar(32) NOT NULL,
	"min_assets" numeric(38, 0) NOT NULL,
	"credit_limit" numeric(38, 0) DEFAULT 0 NOT NULL,
	"updated_at" timestamp with time zone NOT NULL,
	CONSTRAINT "vip_levels_level_range" CHECK ("vip_levels"."level" >= 0 and "vip_levels"."level" <= 20)
);
--> statement-breakpoint
ALTER TABLE "job_runs" ADD CONSTRAINT "job_runs_operator_id_operators_id_fk" FOREIGN KEY ("operator_id") REFERENCES "public"."operators"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "loan_settings" ADD CONSTRAINT "loan_settings_asset_ledger_assets_code_fk" FOREIGN KEY ("asset") REFERENCES "public"."ledger_assets"("code") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "loan_settings" ADD CONSTRAINT "loan_settings_collateral_asset_ledger_assets_code_fk" FOREIGN KEY ("collateral_asset") REFERENCES "public"."ledger_assets"("code") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "loans" ADD CONSTRAINT "loans_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "loans" ADD CONSTRAINT "loans_setting_id_loan_settings_id_fk" FOREIGN KEY ("setting_id") REFERENCES "public"."loan_settings"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "loans" ADD CONSTRAINT "loans_asset_ledger_assets_code_fk" FOREIGN KEY ("asset") REFERENCES "public"."ledger_assets"("code") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "loans" ADD CONSTRAINT "loans_collateral_asset_ledger_assets_code_fk" FOREIGN KEY ("collateral_asset") REFERENCES "public"."ledger_assets"("code") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "loans" ADD CONSTRAINT "loans_signature_upload_id_uploads_id_fk" FOREIGN KEY ("signature_upload_id") REFERENCES "public"."uploads"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "loans" ADD CONSTRAINT "loans_reviewed_by_operators_id_fk" FOREIGN KEY ("reviewed_by") REFERENCES "public"."operators"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "mining_rewards" ADD CONSTRAINT "mining_rewards_asset_ledger_assets_code_fk" FOREIGN KEY ("asset") REFERENCES "public"."ledger_assets"("code") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "mining_rewards" ADD CONSTRAINT "mining_rewards_published_by_operators_id_fk" FOREIGN KEY ("published_by") REFERENCES "public"."operators"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "product_accruals" ADD CONSTRAINT "product_accruals_order_id_product_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."product_orders"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "product_orders" ADD CONSTRAINT "product_orders_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "product_orders" ADD CONSTRAINT "product_orders_product_id_products_id_fk" FOREIGN KEY ("product_id") REFERENCES "public"."products"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "product_reserve_approvals" ADD CONSTRAINT "product_reserve_approvals_funding_id_product_reserve_fundings_id_fk" FOREIGN KEY ("funding_id") REFERENCES "public"."product_reserve_fundings"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "product_reserve_approvals" ADD CONSTRAINT "product_reserve_approvals_operator_id_operators_id_fk" FOREIGN KEY ("operator_id") REFERENCES "public"."operators"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "product_reserve_fundings" ADD CONSTRAINT "product_reserve_fundings_product_id_products_id_fk" FOREIGN KEY ("product_id") REFERENCES "public"."products"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "product_reserve_fundings" ADD CONSTRAINT "product_reserve_fundings_requested_by_operators_id_fk" FOREIGN KEY ("requested_by") REFERENCES "public"."operators"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "products" ADD CONSTRAINT "products_asset_ledger_assets_code_fk" FOREIGN KEY ("asset") REFERENCES "public"."ledger_assets"("code") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "products" ADD CONSTRAINT "products_payout_asset_ledger_assets_code_fk" FOREIGN KEY ("payout_asset") REFERENCES "public"."ledger_assets"("code") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "products" ADD CONSTRAINT "products_created_by_operators_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."operators"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "user_levels" ADD CONSTRAINT "user_levels_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "loans_client_id_key" ON "loans" USING btree ("user_id","client_order_id");--> statement-breakpoint
CREATE INDEX "loans_user_idx" ON "loans" USING btree ("user_id","id");--> statement-breakpoint
CREATE INDEX "loans_status_idx" ON "loans" USING btree ("status","id");--> statement-breakpoint
CREATE UNIQUE INDEX "mining_rewards_asset_day_key" ON "mining_rewards" USING btree ("asset","day");--> statement-breakpoint
CREATE UNIQUE INDEX "product_orders_client_id_key" ON "product_orders" USING btree ("user_id","client_order_id");--> statement-breakpoint
CREATE INDEX "product_orders_user_idx" ON "product_orders" USING btree ("user_id","id");--> statement-breakpoint
CREATE INDEX "product_orders_product_status_idx" ON "product_orders" USING btree ("product_id","status");--> statement-breakpoint
CREATE INDEX "products_type_idx" ON "products" USING btree ("type","status");