CREATE TABLE "competition_entries" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"competition_id" bigint NOT NULL,
	"user_id" bigint NOT NULL,
	"client_order_id" varchar(64) NOT NULL,
	"entry_amount" numeric(38, 0) NOT NULL,
	"status" varchar(8) DEFAULT 'joined' NOT NULL,
	"final_equity" numeric(38, 0),
	"return_ppm" bigint,
	"rank" integer,
	"reward" numeric(38, 0) DEFAULT 0 NOT NULL,
	"joined_at" timestamp with time zone NOT NULL,
	"exited_at" timestamp with time zone,
	"ended_at" timestamp with time zone,
	CONSTRAINT "competition_entries_status_known" CHECK ("competition_entries"."status" in ('joined', 'exited', 'ended'))
);
--> statement-breakpoint
CREATE TABLE "competitions" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"name" varchar(80) NOT NULL,
	"names" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"asset" varchar(12) NOT NULL,
	"entry_amount" numeric(38, 0) NOT NULL,
	"symbols" jsonb NOT NULL,
	"starts_at" timestamp with time zone NOT NULL,
	"ends_at" timestamp with time zone NOT NULL,
	"max_participants" integer DEFAULT 0 NOT NULL,
	"prize_asset" varchar(12) NOT NULL,
	"prize_table" jsonb NOT NULL,
	"status" varchar(10) DEFAULT 'scheduled' NOT NULL,
	"payout_job_id" varchar(64),
	"settled_at" timestamp with time zone,
	"created_by" bigint,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone NOT NULL,
	CONSTRAINT "competitions_status_known" CHECK ("competitions"."status" in ('scheduled', 'running', 'ended', 'settled', 'cancelled')),
	CONSTRAINT "competitions_window" CHECK ("competitions"."ends_at" > "competitions"."starts_at" and "competitions"."entry_amount" > 0)
);
--> statement-breakpoint
CREATE TABLE "ieo_applications" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"project_id" bigint NOT NULL,
	"user_id" bigint NOT NULL,
	"lots" bigint NOT NULL,
	"won_lots" bigint DEFAULT 0 NOT NULL,
	"amount" numeric(38, 0) DEFAULT 0 NOT NULL,
	"status" varchar(10) DEFAULT 'applied' NOT NULL,
	"payment_transfer_id" varchar(64),
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"paid_at" timestamp with time zone,
	CONSTRAINT "ieo_applications_status_known" CHECK ("ieo_applications"."status" in ('applied', 'won', 'lost', 'paid', 'lapsed', 'completed')),
	CONSTRAINT "ieo_applications_lots" CHECK ("ieo_applications"."lots" > 0 and "ieo_applications"."won_lots" >= 0 and "ieo_applications"."won_lots" <= "ieo_applications"."lots")
);
--> statement-breakpoint
CREATE TABLE "ieo_projects" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"name" varchar(80) NOT NULL,
	"names" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"token" varchar(12) NOT NULL,
	"pay_asset" varchar(12) NOT NULL,
	"price" numeric(38, 0) NOT NULL,
	"lot_size" numeric(38, 0) NOT NULL,
	"supply_lots" bigint NOT NULL,
	"per_user_max_lots" bigint NOT NULL,
	"opens_at" timestamp with time zone NOT NULL,
	"closes_at" timestamp with time zone NOT NULL,
	"pay_deadline" timestamp with time zone NOT NULL,
	"lists_at" timestamp with time zone NOT NULL,
	"status" varchar(10) DEFAULT 'upcoming' NOT NULL,
	"seed_hash" varchar(64) NOT NULL,
	"seed" varchar(64) NOT NULL,
	"seed_revealed_at" timestamp with time zone,
	"list" text,
	"list_hash" varchar(64),
	"closed_at" timestamp with time zone,
	"listed_at" timestamp with time zone,
	"created_by" bigint,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone NOT NULL,
	CONSTRAINT "ieo_projects_status_known" CHECK ("ieo_projects"."status" in ('upcoming', 'issuing', 'closed', 'drawn', 'listed', 'cancelled')),
	CONSTRAINT "ieo_projects_figures" CHECK ("ieo_projects"."price" > 0 and "ieo_projects"."lot_size" > 0 and "ieo_projects"."supply_lots" > 0 and "ieo_projects"."per_user_max_lots" > 0),
	CONSTRAINT "ieo_projects_dates" CHECK ("ieo_projects"."closes_at" > "ieo_projects"."opens_at" and "ieo_projects"."pay_deadline" >= "ieo_projects"."closes_at" and "ieo_projects"."lists_at" >= "ieo_projects"."pay_deadline")
);
--> statement-breakpoint
CREATE TABLE "red_envelopes" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"user_id" bigint NOT NULL,
	"week" varchar(10) NOT NULL,
	"level" smallint NOT NULL,
	"asset" varchar(12) NOT NULL,
	"amount" numeric(38, 0) NOT NULL,
	"status" varchar(8) DEFAULT 'unopened' NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"opened_at" timestamp with time zone,
	"transfer_id" varchar(64),
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "red_envelopes_status_known" CHECK ("red_envelopes"."status" in ('unopened', 'opened', 'expired'))
);
--> statement-breakpoint
CREATE TABLE "reward_funding_approvals" (
	"funding_id" bigint NOT NULL,
	"operator_id" bigint NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "reward_funding_approvals_funding_id_operator_id_pk" PRIMARY KEY("funding_id","operator_id")
);
--> statement-breakpoint
CREATE TABLE "reward_fundings" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"pool" varchar(8) NOT NULL,
	"asset" varchar(12) NOT NULL,
	"amount" numeric(38, 0) NOT NULL,
	"competition_id" bigint,
	"status" varchar(8) NOT NULL,
	"approvals_required" smallint NOT NULL,
	"requested_by" bigint NOT NULL,
	"transfer_id" varchar(64),
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"completed_at" timestamp with time zone,
	CONSTRAINT "reward_fundings_pool_known" CHECK ("reward_fundings"."pool" in ('rewards', 'prizes')),
	CONSTRAINT "reward_fundings_status_known" CHECK ("reward_fundings"."status" in ('pending', 'done', 'rejected'))
);
--> statement-breakpoint
CREATE TABLE "short_links" (
	"code" varchar(16) PRIMARY KEY NOT NULL,
	"user_id" bigint,
	"target" varchar(300) NOT NULL,
	"visits" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_visit_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "team_commission_rates" (
	"level" smallint PRIMARY KEY NOT NULL,
	"rate_ppm" integer NOT NULL,
	"updated_at" timestamp with time zone NOT NULL,
	CONSTRAINT "team_commission_rates_range" CHECK ("team_commission_rates"."level" between 1 and 3 and "team_commission_rates"."rate_ppm" between 0 and 500000)
);
--> statement-breakpoint
CREATE TABLE "team_commissions" (
	"day" varchar(10) NOT NULL,
	"user_id" bigint NOT NULL,
	"from_user_id" bigint NOT NULL,
	"level" smallint NOT NULL,
	"asset" varchar(12) NOT NULL,
	"fees" numeric(38, 0) NOT NULL,
	"rate_ppm" integer NOT NULL,
	"amount" numeric(38, 0) NOT NULL,
	"transfer_id" varchar(64),
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "team_commissions_day_user_id_from_user_id_asset_pk" PRIMARY KEY("day","user_id","from_user_id","asset")
);
--> statement-breakpoint
CREATE TABLE "vip_bonus_grants" (
	"user_id" bigint NOT NULL,
	"level" smallint NOT NULL,
	"asset" varchar(12) NOT NULL,
	"amount" numeric(38, 0) NOT NULL,
	"transfer_id" varchar(64) NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "vip_bonus_grants_user_id_level_pk" PRIMARY KEY("user_id","level")
);
--> statement-breakpoint
CREATE TABLE "vip_rewards" (
	"level" smallint PRIMARY KEY NOT NULL,
	"asset" varchar(12) NOT NULL,
	"bonus" numeric(38, 0) DEFAULT 0 NOT NULL,
	"weekly_envelope" numeric(38, 0) DEFAULT 0 NOT NULL,
	"updated_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "welfare_checkins" (
	"user_id" bigint NOT NULL,
	"day" varchar(10) NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "welfare_checkins_user_id_day_pk" PRIMARY KEY("user_id","day")
);
--> statement-breakpoint
CREATE TABLE "welfare_claims" (
	"task_id" bigint NOT NULL,
	"user_id" bigint NOT NULL,
	"amount" numeric(38, 0) NOT NULL,
	"transfer_id" varchar(64) NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "welfare_claims_task_id_user_id_pk" PRIMARY KEY("task_id","user_id")
);
--> statement-breakpoint
CREATE TABLE "welfare_tasks" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"kind" varchar(20) NOT NULL,
	"name" varchar(80) NOT NULL,
	"names" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"target" integer DEFAULT 1 NOT NULL,
	"reward_asset" varchar(12) NOT NULL,
	"reward_amount" numeric(38, 0) NOT NULL,
	"enabled" boolean DEFAULT true NOT NULL,
	"sort" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone NOT NULL,
	CONSTRAINT "welfare_tasks_kind_known" CHECK ("welfare_tasks"."kind" in ('first_deposit', 'kyc_basic', 'first_trade', 'first_product', 'invite_deposit', 'checkin_streak')),
	CONSTRAINT "welfare_tasks_reward_positive" CHECK ("welfare_tasks"."reward_amount" > 0 and "welfare_tasks"."target" >= 1)
);
--> statement-breakpoint
ALTER TABLE "trade_positions" ADD COLUMN "competition_id" bigint;--> statement-breakpoint
ALTER TABLE "competition_entries" ADD CONSTRAINT "competition_entries_competition_id_competitions_id_fk" FOREIGN KEY ("competition_id") REFERENCES "public"."competitions"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "competition_entries" ADD CONSTRAINT "competition_entries_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "competitions" ADD CONSTRAINT "competitions_asset_ledger_assets_code_fk" FOREIGN KEY ("asset") REFERENCES "public"."ledger_assets"("code") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "competitions" ADD CONSTRAINT "competitions_prize_asset_ledger_assets_code_fk" FOREIGN KEY ("prize_asset") REFERENCES "public"."ledger_assets"("code") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "competitions" ADD CONSTRAINT "competitions_created_by_operators_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."operators"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ieo_applications" ADD CONSTRAINT "ieo_applications_project_id_ieo_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."ieo_projects"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ieo_applications" ADD CONSTRAINT "ieo_applications_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ieo_projects" ADD CONSTRAINT "ieo_projects_token_ledger_assets_code_fk" FOREIGN KEY ("token") REFERENCES "public"."ledger_assets"("code") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ieo_projects" ADD CONSTRAINT "ieo_projects_pay_asset_ledger_assets_code_fk" FOREIGN KEY ("pay_asset") REFERENCES "public"."ledger_assets"("code") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ieo_projects" ADD CONSTRAINT "ieo_projects_created_by_operators_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."operators"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "red_envelopes" ADD CONSTRAINT "red_envelopes_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "reward_funding_approvals" ADD CONSTRAINT "reward_funding_approvals_funding_id_reward_fundings_id_fk" FOREIGN KEY ("funding_id") REFERENCES "public"."reward_fundings"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "reward_funding_approvals" ADD CONSTRAINT "reward_funding_approvals_operator_id_operators_id_fk" FOREIGN KEY ("operator_id") REFERENCES "public"."operators"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "reward_fundings" ADD CONSTRAINT "reward_fundings_asset_ledger_assets_code_fk" FOREIGN KEY ("asset") REFERENCES "public"."ledger_assets"("code") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "reward_fundings" ADD CONSTRAINT "reward_fundings_competition_id_competitions_id_fk" FOREIGN KEY ("competition_id") REFERENCES "public"."competitions"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "reward_fundings" ADD CONSTRAINT "reward_fundings_requested_by_operators_id_fk" FOREIGN KEY ("requested_by") REFERENCES "public"."operators"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "short_links" ADD CONSTRAINT "short_links_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "team_commissions" ADD CONSTRAINT "team_commissions_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "team_commissions" ADD CONSTRAINT "team_commissions_from_user_id_users_id_fk" FOREIGN KEY ("from_user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "vip_bonus_grants" ADD CONSTRAINT "vip_bonus_grants_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "vip_rewards" ADD CONSTRAINT "vip_rewards_level_vip_levels_level_fk" FOREIGN KEY ("level") REFERENCES "public"."vip_levels"("level") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "vip_rewards" ADD CONSTRAINT "vip_rewards_asset_ledger_assets_code_fk" FOREIGN KEY ("asset") REFERENCES "public"."ledger_assets"("code") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "welfare_checkins" ADD CONSTRAINT "welfare_checkins_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "welfare_claims" ADD CONSTRAINT "welfare_claims_task_id_welfare_tasks_id_fk" FOREIGN KEY ("task_id") REFERENCES "public"."welfare_tasks"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "welfare_claims" ADD CONSTRAINT "welfare_claims_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "welfare_tasks" ADD CONSTRAINT "welfare_tasks_reward_asset_ledger_assets_code_fk" FOREIGN KEY ("reward_asset") REFERENCES "public"."ledger_assets"("code") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "competition_entries_user_key" ON "competition_entries" USING btree ("competition_id","user_id");--> statement-breakpoint
CREATE UNIQUE INDEX "competition_entries_client_key" ON "competition_entries" USING btree ("user_id","client_order_id");--> statement-breakpoint
CREATE INDEX "competition_entries_rank_idx" ON "competition_entries" USING btree ("competition_id","rank");--> statement-breakpoint
CREATE INDEX "competitions_status_idx" ON "competitions" USING btree ("status","starts_at");--> statement-breakpoint
CREATE UNIQUE INDEX "ieo_applications_user_key" ON "ieo_applications" USING btree ("project_id","user_id");--> statement-breakpoint
CREATE INDEX "ieo_applications_project_idx" ON "ieo_applications" USING btree ("project_id","id");--> statement-breakpoint
CREATE UNIQUE INDEX "red_envelopes_user_week_key" ON "red_envelopes" USING btree ("user_id","week");--> statement-breakpoint
CREATE INDEX "red_envelopes_user_idx" ON "red_envelopes" USING btree ("user_id","id");--> statement-breakpoint
CREATE INDEX "short_links_user_idx" ON "short_links" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "team_commissions_user_idx" ON "team_commissions" USING btree ("user_id","day");