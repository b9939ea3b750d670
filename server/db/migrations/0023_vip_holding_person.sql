CREATE TABLE "user_level_holds" (
	"user_id" bigint NOT NULL,
	"level" smallint NOT NULL,
	"since" timestamp with time zone NOT NULL,
	CONSTRAINT "user_level_holds_user_id_level_pk" PRIMARY KEY("user_id","level")
);
--> statement-breakpoint
ALTER TABLE "vip_bonus_grants" ADD COLUMN "person_key" varchar(64);--> statement-breakpoint
ALTER TABLE "user_level_holds" ADD CONSTRAINT "user_level_holds_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "vip_bonus_grants_person_key" ON "vip_bonus_grants" USING btree ("level","person_key") WHERE "vip_bonus_grants"."person_key" is not null;