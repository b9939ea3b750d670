CREATE TABLE "payout_job_batches" (
	"job_id" varchar(40) NOT NULL,
	"batch_no" integer NOT NULL,
	"shard" smallint NOT NULL,
	"targets_posted" integer NOT NULL,
	"amount_posted" numeric(38, 0) NOT NULL,
	"targets_refused" integer NOT NULL,
	"amount_refused" numeric(38, 0) NOT NULL,
	"posted_at" timestamp with time zone NOT NULL,
	CONSTRAINT "payout_job_batches_job_id_batch_no_pk" PRIMARY KEY("job_id","batch_no")
);
--> statement-breakpoint
CREATE TABLE "payout_job_targets" (
	"job_id" varchar(40) NOT NULL,
	"ordinal" integer NOT NULL,
	"account_id" bigint NOT NULL,
	"amount" numeric(38, 0) NOT NULL,
	"refusal" varchar(40),
	CONSTRAINT "payout_job_targets_job_id_ordinal_pk" PRIMARY KEY("job_id","ordinal"),
	CONSTRAINT "payout_job_targets_amount_positive" CHECK ("payout_job_targets"."amount" > 0)
);
--> statement-breakpoint
CREATE TABLE "payout_jobs" (
	"id" varchar(40) PRIMARY KEY NOT NULL,
	"ledger" smallint NOT NULL,
	"asset" varchar(12) NOT NULL,
	"source_kind" varchar(24) NOT NULL,
	"direction" varchar(6) NOT NULL,
	"kind" varchar(32) NOT NULL,
	"reference" varchar(64) NOT NULL,
	"remark" varchar(200),
	"batch_size" integer NOT NULL,
	"target_count" integer NOT NULL,
	"amount_total" numeric(38, 0) NOT NULL,
	"state" varchar(8) NOT NULL,
	"targets_posted" integer DEFAULT 0 NOT NULL,
	"amount_posted" numeric(38, 0) DEFAULT 0 NOT NULL,
	"targets_refused" integer DEFAULT 0 NOT NULL,
	"amount_refused" numeric(38, 0) DEFAULT 0 NOT NULL,
	"error" varchar(500),
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone NOT NULL,
	"finished_at" timestamp with time zone,
	CONSTRAINT "payout_jobs_ledger_known" CHECK ("payout_jobs"."ledger" in (1, 2)),
	CONSTRAINT "payout_jobs_direction_known" CHECK ("payout_jobs"."direction" in ('credit', 'debit')),
	CONSTRAINT "payout_jobs_state_known" CHECK ("payout_jobs"."state" in ('running', 'done', 'failed')),
	CONSTRAINT "payout_jobs_progress_bounded" CHECK ("payout_jobs"."targets_posted" + "payout_jobs"."targets_refused" <= "payout_jobs"."target_count")
);
--> statement-breakpoint
ALTER TABLE "payout_job_batches" ADD CONSTRAINT "payout_job_batches_job_id_payout_jobs_id_fk" FOREIGN KEY ("job_id") REFERENCES "public"."payout_jobs"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payout_jobs" ADD CONSTRAINT "payout_jobs_asset_ledger_assets_code_fk" FOREIGN KEY ("asset") REFERENCES "public"."ledger_assets"("code") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "payout_jobs_state_idx" ON "payout_jobs" USING btree ("state");