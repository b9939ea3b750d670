ALTER TABLE "loans" ADD COLUMN "margin_call_ltv_bp" integer;--> statement-breakpoint
ALTER TABLE "loans" ADD COLUMN "liquidation_ltv_bp" integer;--> statement-breakpoint
ALTER TABLE "loans" ADD COLUMN "liquidation_fee_bp" integer;--> statement-breakpoint
UPDATE "loans" SET "margin_call_ltv_bp" = s."margin_call_ltv_bp", "liquidation_ltv_bp" = s."liquidation_ltv_bp", "liquidation_fee_bp" = s."liquidation_fee_bp" FROM "loan_settings" s WHERE "loans"."setting_id" = s."id" AND "loans"."type" = 'pledge';
