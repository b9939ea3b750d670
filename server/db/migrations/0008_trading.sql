CREATE TABLE "second_contract_orders" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"user_id" bigint NOT NULL,
	"ledger" smallint NOT NULL,
	"symbol" varchar(20) NOT NULL,
	"direction" varchar(4) NOT NULL,
	"duration_seconds" integer NOT NULL,
	"payout_ppm" integer NOT NULL,
	"amount" numeric(38, 0) NOT NULL,
	"status" varchar(5) NOT NULL,
	"client_order_id" varchar(64) NOT NULL,
	"request_hash" varchar(64) NOT NULL,
	"accepted_at" timestamp with time zone NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"entry_tick_id" bigint,
	"entry_price" bigint,
	"exit_tick_id" bigint,
	"exit_price" bigint,
	"payout" numeric(38, 0),
	"settled_at" timestamp with time zone,
	CONSTRAINT "second_contract_orders_ledger_known" CHECK ("second_contract_orders"."ledger" in (1, 2)),
	CONSTRAINT "second_contract_orders_direction_known" CHECK ("second_contract_orders"."direction" in ('up', 'down')),
	CONSTRAINT "second_contract_orders_status_known" CHECK ("second_contract_orders"."status" in ('open', 'won', 'lost', 'draw')),
	CONSTRAINT "second_contract_orders_settled" CHECK (("second_contract_orders"."status" = 'open') = ("second_contract_orders"."settled_at" is null)),
	CONSTRAINT "second_contract_orders_amount_positive" CHECK ("second_contract_orders"."amount" > 0)
);
--> statement-breakpoint
CREATE TABLE "second_contract_sets" (
	"symbol" varchar(20) PRIMARY KEY NOT NULL,
	"enabled" boolean NOT NULL,
	"durations" jsonb NOT NULL,
	"amount_min" numeric(38, 0) NOT NULL,
	"amount_max" numeric(38, 0) NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "second_contract_sets_bounds" CHECK ("second_contract_sets"."amount_min" > 0 and "second_contract_sets"."amount_max" >= "second_contract_sets"."amount_min")
);
--> statement-breakpoint
CREATE TABLE "swap_orders" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"quote_id" varchar(64) NOT NULL,
	"user_id" bigint NOT NULL,
	"from_asset" varchar(12) NOT NULL,
	"to_asset" varchar(12) NOT NULL,
	"amount" numeric(38, 0) NOT NULL,
	"fee" numeric(38, 0) NOT NULL,
	"receive" numeric(38, 0) NOT NULL,
	"rate" varchar(80) NOT NULL,
	"tick_ids" jsonb NOT NULL,
	"created_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "swap_quotes" (
	"id" varchar(64) PRIMARY KEY NOT NULL,
	"user_id" bigint NOT NULL,
	"from_asset" varchar(12) NOT NULL,
	"to_asset" varchar(12) NOT NULL,
	"amount" numeric(38, 0) NOT NULL,
	"fee" numeric(38, 0) NOT NULL,
	"receive" numeric(38, 0) NOT NULL,
	"rate" varchar(80) NOT NULL,
	"tick_ids" jsonb NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"used_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "swap_settings" (
	"id" smallint PRIMARY KEY NOT NULL,
	"enabled" boolean NOT NULL,
	"fee_ppm" integer NOT NULL,
	"spread_ppm" integer NOT NULL,
	"quote_ttl_ms" integer NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "swap_settings_one_row" CHECK ("swap_settings"."id" = 1)
);
--> statement-breakpoint
CREATE TABLE "trade_positions" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"user_id" bigint NOT NULL,
	"ledger" smallint NOT NULL,
	"symbol" varchar(20) NOT NULL,
	"direction" varchar(5) NOT NULL,
	"leverage" integer NOT NULL,
	"quantity" bigint NOT NULL,
	"margin" numeric(38, 0) NOT NULL,
	"open_price" bigint NOT NULL,
	"spread_units" bigint NOT NULL,
	"fee_ppm" integer NOT NULL,
	"maintenance_ppm" integer NOT NULL,
	"open_fee" numeric(38, 0) NOT NULL,
	"take_profit" bigint,
	"stop_loss" bigint,
	"liquidation_price" bigint,
	"status" varchar(10) NOT NULL,
	"client_order_id" varchar(64) NOT NULL,
	"request_hash" varchar(64) NOT NULL,
	"entry_tick_id" bigint NOT NULL,
	"exit_tick_id" bigint,
	"close_price" bigint,
	"close_reason" varchar(16),
	"close_fee" numeric(38, 0),
	"gross_pnl" numeric(38, 0),
	"pnl" numeric(38, 0),
	"shortfall" numeric(38, 0),
	"version" integer DEFAULT 1 NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL,
	"closed_at" timestamp with time zone,
	CONSTRAINT "trade_positions_ledger_known" CHECK ("trade_positions"."ledger" in (1, 2)),
	CONSTRAINT "trade_positions_direction_known" CHECK ("trade_positions"."direction" in ('long', 'short')),
	CONSTRAINT "trade_positions_status_known" CHECK ("trade_positions"."status" in ('running', 'settling', 'closed')),
	CONSTRAINT "trade_positions_closed_has_receipt" CHECK (("trade_positions"."status" = 'closed') = ("trade_positions"."exit_tick_id" is not null and "trade_positions"."close_reason" is not null and "trade_positions"."pnl" is not null and "trade_positions"."closed_at" is not null)),
	CONSTRAINT "trade_positions_size_positive" CHECK ("trade_positions"."quantity" > 0 and "trade_positions"."margin" > 0 and "trade_positions"."leverage" >= 1)
);
--> statement-breakpoint
CREATE TABLE "trade_symbol_settings" (
	"symbol" varchar(20) PRIMARY KEY NOT NULL,
	"enabled" boolean NOT NULL,
	"leverages" jsonb NOT NULL,
	"quantity_min" bigint NOT NULL,
	"quantity_max" bigint NOT NULL,
	"margin_min" numeric(38, 0) NOT NULL,
	"margin_max" numeric(38, 0) NOT NULL,
	"fee_ppm" integer NOT NULL,
	"maintenance_ppm" integer NOT NULL,
	"spread_units" bigint NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "trade_symbol_settings_bounds" CHECK ("trade_symbol_settings"."quantity_min" > 0 and "trade_symbol_settings"."quantity_max" >= "trade_symbol_settings"."quantity_min" and "trade_symbol_settings"."margin_min" > 0 and "trade_symbol_settings"."margin_max" >= "trade_symbol_settings"."margin_min"),
	CONSTRAINT "trade_symbol_settings_rates" CHECK ("trade_symbol_settings"."fee_ppm" between 0 and 100000 and "trade_symbol_settings"."maintenance_ppm" between 0 and 500000 and "trade_symbol_settings"."spread_units" >= 0)
);
--> statement-breakpoint
ALTER TABLE "second_contract_orders" ADD CONSTRAINT "second_contract_orders_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "swap_orders" ADD CONSTRAINT "swap_orders_quote_id_swap_quotes_id_fk" FOREIGN KEY ("quote_id") REFERENCES "public"."swap_quotes"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "swap_orders" ADD CONSTRAINT "swap_orders_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "swap_quotes" ADD CONSTRAINT "swap_quotes_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "trade_positions" ADD CONSTRAINT "trade_positions_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "second_contract_orders_client_order_key" ON "second_contract_orders" USING btree ("user_id","ledger","client_order_id");--> statement-breakpoint
CREATE INDEX "second_contract_orders_user_idx" ON "second_contract_orders" USING btree ("user_id","ledger","status","id");--> statement-breakpoint
CREATE INDEX "second_contract_orders_open_idx" ON "second_contract_orders" USING btree ("status","expires_at");--> statement-breakpoint
CREATE UNIQUE INDEX "swap_orders_quote_key" ON "swap_orders" USING btree ("quote_id");--> statement-breakpoint
CREATE INDEX "swap_orders_user_idx" ON "swap_orders" USING btree ("user_id","id");--> statement-breakpoint
CREATE INDEX "swap_quotes_user_idx" ON "swap_quotes" USING btree ("user_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "trade_positions_client_order_key" ON "trade_positions" USING btree ("user_id","ledger","client_order_id");--> statement-breakpoint
CREATE INDEX "trade_positions_user_idx" ON "trade_positions" USING btree ("user_id","ledger","status","id");--> statement-breakpoint
CREATE INDEX "trade_positions_running_idx" ON "trade_positions" USING btree ("status","updated_at");