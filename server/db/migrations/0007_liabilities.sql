CREATE TABLE "liability_leaves" (
	"root_id" bigint NOT NULL,
	"user_id" bigint NOT NULL,
	"position" integer NOT NULL,
	"salt" varchar(64) NOT NULL,
	"leaf_id" varchar(64) NOT NULL,
	CONSTRAINT "liability_leaves_root_id_user_id_pk" PRIMARY KEY("root_id","user_id")
);
--> statement-breakpoint
CREATE TABLE "liability_nodes" (
	"root_id" bigint NOT NULL,
	"level" smallint NOT NULL,
	"position" integer NOT NULL,
	"hash" varchar(64) NOT NULL,
	"sums" jsonb NOT NULL,
	CONSTRAINT "liability_nodes_root_id_level_position_pk" PRIMARY KEY("root_id","level","position")
);
--> statement-breakpoint
CREATE TABLE "liability_roots" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"root" varchar(64) NOT NULL,
	"leaf_count" integer NOT NULL,
	"assets" jsonb NOT NULL,
	"totals" jsonb NOT NULL,
	"trigger" varchar(8) NOT NULL,
	"operator_id" bigint,
	"day" varchar(10) NOT NULL,
	"published_at" timestamp with time zone NOT NULL,
	CONSTRAINT "liability_roots_trigger_known" CHECK ("liability_roots"."trigger" in ('daily', 'operator'))
);
--> statement-breakpoint
ALTER TABLE "liability_leaves" ADD CONSTRAINT "liability_leaves_root_id_liability_roots_id_fk" FOREIGN KEY ("root_id") REFERENCES "public"."liability_roots"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "liability_leaves" ADD CONSTRAINT "liability_leaves_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "liability_nodes" ADD CONSTRAINT "liability_nodes_root_id_liability_roots_id_fk" FOREIGN KEY ("root_id") REFERENCES "public"."liability_roots"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "liability_roots" ADD CONSTRAINT "liability_roots_operator_id_operators_id_fk" FOREIGN KEY ("operator_id") REFERENCES "public"."operators"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "liability_roots_daily_key" ON "liability_roots" USING btree ("day") WHERE "liability_roots"."trigger" = 'daily';--> statement-breakpoint
CREATE INDEX "liability_roots_published_idx" ON "liability_roots" USING btree ("published_at","id");