ALTER TABLE "ieo_applications" ADD COLUMN "person_key" varchar(64);--> statement-breakpoint
ALTER TABLE "ieo_applications" ADD COLUMN "hold_transfer_id" varchar(64);--> statement-breakpoint
ALTER TABLE "ieo_applications" ADD COLUMN "held_amount" numeric(38, 0) DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "referrer_bound_at" timestamp with time zone;--> statement-breakpoint
CREATE UNIQUE INDEX "ieo_applications_person_key" ON "ieo_applications" USING btree ("project_id","person_key") WHERE "ieo_applications"."person_key" is not null;--> statement-breakpoint
CREATE INDEX "ieo_applications_held_idx" ON "ieo_applications" USING btree ("project_id","id") WHERE "ieo_applications"."held_amount" > 0;--> statement-breakpoint
ALTER TABLE "ieo_applications" ADD CONSTRAINT "ieo_applications_held" CHECK ("ieo_applications"."held_amount" >= 0);