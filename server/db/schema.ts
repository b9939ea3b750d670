// Drizzle schema of the accounts area. Migrations are generated from this file
// (`npm run db:generate`) and applied at start on PGlite or PostgreSQL.
import { sql } from 'drizzle-orm';
import {
  bigserial, bigint, boolean, index, integer, pgTable, primaryKey, text, timestamp, uniqueIndex, varchar,
} from 'drizzle-orm/pg-core';

const createdAt = () => timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow();

export const users = pgTable('users', {
  id: bigserial('id', { mode: 'bigint' }).primaryKey(),
  /** Lower-cased e-mail address, when the account was registered by e-mail. */
  email: varchar('email', { length: 254 }),
  /** Digits only; with phoneCountryCode it identifies a phone account. */
  phone: varchar('phone', { length: 20 }),
  phoneCountryCode: varchar('phone_country_code', { length: 6 }),
  /** Guest accounts are identified by a chosen user name. */
  username: varchar('username', { length: 32 }),
  passwordHash: text('password_hash').notNull(),
  isGuest: boolean('is_guest').notNull().default(false),
  /** True until a guest changes the initial password the server generated. */
  hasInitialPassword: boolean('has_initial_password').notNull().default(false),
  inviteCode: varchar('invite_code', { length: 12 }).notNull(),
  referrerId: bigint('referrer_id', { mode: 'bigint' }),
  surname: varchar('surname', { length: 64 }),
  firstName: varchar('first_name', { length: 64 }),
  gender: varchar('gender', { length: 8 }),
  birthday: varchar('birthday', { length: 10 }),
  country: varchar('country', { length: 2 }),
  address: varchar('address', { length: 200 }),
  contactPhone: varchar('contact_phone', { length: 24 }),
  lastSeenAt: timestamp('last_seen_at', { withTimezone: true, mode: 'date' }),
  lastActiveAt: timestamp('last_active_at', { withTimezone: true, mode: 'date' }),
  createdAt: createdAt(),
}, (t) => [
  uniqueIndex('users_email_key').on(t.email).where(sql`${t.email} is not null`),
  uniqueIndex('users_phone_key').on(t.phoneCountryCode, t.phone).where(sql`${t.phone} is not null`),
  uniqueIndex('users_username_key').on(t.username).where(sql`${t.username} is not null`),
  uniqueIndex('users_invite_code_key').on(t.inviteCode),
]);

export const sessions = pgTable('sessions', {
  id: bigserial('id', { mode: 'bigint' }).primaryKey(),
  userId: bigint('user_id', { mode: 'bigint' }).notNull().references(() => users.id),
  /** SHA-256 of the opaque token; the token itself is never stored. */
  tokenHash: varchar('token_hash', { length: 64 }).notNull(),
  userAgent: varchar('user_agent', { length: 200 }),
  lastUsedAt: timestamp('last_used_at', { withTimezone: true, mode: 'date' }).notNull(),
  expiresAt: timestamp('expires_at', { withTimezone: true, mode: 'date' }).notNull(),
  revokedAt: timestamp('revoked_at', { withTimezone: true, mode: 'date' }),
  createdAt: createdAt(),
}, (t) => [
  uniqueIndex('sessions_token_hash_key').on(t.tokenHash),
  index('sessions_user_idx').on(t.userId),
]);

export const verificationCodes = pgTable('verification_codes', {
  id: bigserial('id', { mode: 'bigint' }).primaryKey(),
  channel: varchar('channel', { length: 8 }).notNull(),
  /** Normalised target: a lower-cased e-mail, or "+<country code> <digits>". */
  target: varchar('target', { length: 260 }).notNull(),
  purpose: varchar('purpose', { length: 16 }).notNull(),
  codeHash: varchar('code_hash', { length: 64 }).notNull(),
  attempts: integer('attempts').notNull().default(0),
  expiresAt: timestamp('expires_at', { withTimezone: true, mode: 'date' }).notNull(),
  usedAt: timestamp('used_at', { withTimezone: true, mode: 'date' }),
  createdAt: createdAt(),
}, (t) => [index('verification_codes_target_idx').on(t.target, t.purpose, t.createdAt)]);

/** Key-value system settings read by GET /set/appSysSet/getKeyByParam. */
export const systemSettings = pgTable('system_settings', {
  key: varchar('key', { length: 64 }).primaryKey(),
  value: text('value').notNull(),
  updatedAt: timestamp('updated_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
});

/**
 * Every tick the feed produced, with its source and time. A tick used by a settlement is marked
 * `retained` and never deleted; the rest are pruned after the retention period.
 */
export const marketTicks = pgTable('market_ticks', {
  id: bigserial('id', { mode: 'bigint' }).primaryKey(),
  symbol: varchar('symbol', { length: 20 }).notNull(),
  price: bigint('price', { mode: 'bigint' }).notNull(),
  volume: bigint('volume', { mode: 'bigint' }).notNull(),
  source: varchar('source', { length: 32 }).notNull(),
  time: timestamp('time', { withTimezone: true, mode: 'date' }).notNull(),
  retained: boolean('retained').notNull().default(false),
}, (t) => [index('market_ticks_symbol_time_idx').on(t.symbol, t.time)]);

/** OHLCV candles of every period, aggregated from ticks (history back-filled by the simulator). */
export const marketCandles = pgTable('market_candles', {
  symbol: varchar('symbol', { length: 20 }).notNull(),
  period: varchar('period', { length: 3 }).notNull(),
  openTime: timestamp('open_time', { withTimezone: true, mode: 'date' }).notNull(),
  open: bigint('open', { mode: 'bigint' }).notNull(),
  high: bigint('high', { mode: 'bigint' }).notNull(),
  low: bigint('low', { mode: 'bigint' }).notNull(),
  close: bigint('close', { mode: 'bigint' }).notNull(),
  volume: bigint('volume', { mode: 'bigint' }).notNull(),
}, (t) => [primaryKey({ columns: [t.symbol, t.period, t.openTime] })]);

/**
 * The replay guard of encrypted POST bodies (spec §7): one row per body accepted, keyed by a
 * digest of its unwrapped AES key (random per request), kept until `expires_at` and then pruned.
 * In the database, so a replay is refused after a restart and by every instance.
 */
export const requestReplayKeys = pgTable('request_replay_keys', {
  /** base64url of the first 16 bytes of SHA-256 over the body's AES key. */
  digest: varchar('digest', { length: 22 }).primaryKey(),
  expiresAt: timestamp('expires_at', { withTimezone: true, mode: 'date' }).notNull(),
}, (t) => [index('request_replay_keys_expires_idx').on(t.expiresAt)]);
