CREATE TABLE "uploads" (
	"id" varchar(32) PRIMARY KEY NOT NULL,
	"owner_user_id" bigint NOT NULL,
	"purpose" varchar(24) NOT NULL,
	"content_type" varchar(32) NOT NULL,
	"stored_name" varchar(64) NOT NULL,
	"size_bytes" integer NOT NULL,
	"width" integer,
	"height" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "wallet_currencies" (
	"code" varchar(12) PRIMARY KEY NOT NULL,
	"enabled" boolean DEFAULT true NOT NULL,
	"sort_order" smallint DEFAULT 0 NOT NULL,
	"usdt_rate" numeric(38, 18),
	"usdt_rate_updated_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "wallet_currencies_usdt_rate_positive" CHECK ("wallet_currencies"."usdt_rate" is null or "wallet_currencies"."usdt_rate" > 0)
);
--> statement-breakpoint
CREATE TABLE "wallet_networks" (
	"currency" varchar(12) NOT NULL,
	"network" varchar(16) NOT NULL,
	"deposit_enabled" boolean DEFAULT true NOT NULL,
	"withdrawal_enabled" boolean DEFAULT true NOT NULL,
	"deposit_address" varchar(128),
	"deposit_min" numeric(38, 0) NOT NULL,
	"withdrawal_min" numeric(38, 0) NOT NULL,
	"withdrawal_fee" numeric(38, 0) NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "wallet_networks_currency_network_pk" PRIMARY KEY("currency","network"),
	CONSTRAINT "wallet_networks_network_format" CHECK ("wallet_networks"."network" ~ '^[A-Z0-9]{2,16}$'),
	CONSTRAINT "wallet_networks_amounts_not_negative" CHECK ("wallet_networks"."deposit_min" >= 0 and "wallet_networks"."withdrawal_min" >= 0 and "wallet_networks"."withdrawal_fee" >= 0)
);
--> statement-breakpoint
CREATE TABLE "wallet_recharges" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"user_id" bigint NOT NULL,
	"currency" varchar(12) NOT NULL,
	"network" varchar(16) NOT NULL,
	"amount" numeric(38, 0) NOT NULL,
	"deposit_address" varchar(128) NOT NULL,
	"proof_file_id" varchar(32) NOT NULL,
	"tx_hash" varchar(128),
	"status" smallint DEFAULT 0 NOT NULL,
	"reason" varchar(200),
	"decided_by" bigint,
	"decided_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "wallet_recharges_status_known" CHECK ("wallet_recharges"."status" in (0, 1, -1)),
	CONSTRAINT "wallet_recharges_amount_positive" CHECK ("wallet_recharges"."amount" > 0),
	CONSTRAINT "wallet_recharges_decided" CHECK (("wallet_recharges"."status" = 0) = ("wallet_recharges"."decided_at" is null))
);
--> statement-breakpoint
ALTER TABLE "uploads" ADD CONSTRAINT "uploads_owner_user_id_users_id_fk" FOREIGN KEY ("owner_user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "wallet_currencies" ADD CONSTRAINT "wallet_currencies_code_ledger_assets_code_fk" FOREIGN KEY ("code") REFERENCES "public"."ledger_assets"("code") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "wallet_networks" ADD CONSTRAINT "wallet_networks_currency_wallet_currencies_code_fk" FOREIGN KEY ("currency") REFERENCES "public"."wallet_currencies"("code") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "wallet_recharges" ADD CONSTRAINT "wallet_recharges_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "wallet_recharges" ADD CONSTRAINT "wallet_recharges_currency_ledger_assets_code_fk" FOREIGN KEY ("currency") REFERENCES "public"."ledger_assets"("code") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "wallet_recharges" ADD CONSTRAINT "wallet_recharges_proof_file_id_uploads_id_fk" FOREIGN KEY ("proof_file_id") REFERENCES "public"."uploads"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "uploads_owner_idx" ON "uploads" USING btree ("owner_user_id","created_at");--> statement-breakpoint
CREATE INDEX "wallet_recharges_user_idx" ON "wallet_recharges" USING btree ("user_id","id");--> statement-breakpoint
CREATE INDEX "wallet_recharges_status_idx" ON "wallet_recharges" USING btree ("status","id");