CREATE TABLE "market_candles" (
	"symbol" varchar(20) NOT NULL,
	"period" varchar(3) NOT NULL,
	"open_time" timestamp with time zone NOT NULL,
	"open" bigint NOT NULL,
	"high" bigint NOT NULL,
	"low" bigint NOT NULL,
	"close" bigint NOT NULL,
	"volume" bigint NOT NULL,
	CONSTRAINT "market_candles_symbol_period_open_time_pk" PRIMARY KEY("symbol","period","open_time")
);
--> statement-breakpoint
CREATE TABLE "market_ticks" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"symbol" varchar(20) NOT NULL,
	"price" bigint NOT NULL,
	"volume" bigint NOT NULL,
	"source" varchar(32) NOT NULL,
	"time" timestamp with time zone NOT NULL,
	"retained" boolean DEFAULT false NOT NULL
);
--> statement-breakpoint
CREATE INDEX "market_ticks_symbol_time_idx" ON "market_ticks" USING btree ("symbol","time");