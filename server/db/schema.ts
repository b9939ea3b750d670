// Drizzle schema of the accounts area. Migrations are generated from this file
// (`npm run db:generate`) and applied at start on PGlite or PostgreSQL.
import { sql } from 'drizzle-orm';
import {
  bigserial, bigint, boolean, check, foreignKey, index, integer, jsonb, numeric, pgTable, primaryKey, smallint, text, timestamp,
  unique, uniqueIndex, varchar,
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
  /**
   * When the inviter was bound by bindInviter (issue 38): team commission counts only the fees paid
   * from then on. Null for an inviter given at registration (bound at created_at).
   */
  referrerBoundAt: timestamp('referrer_bound_at', { withTimezone: true, mode: 'date' }),
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
  // Team sizes by level (issue 23) walk users by referrer, one level at a time.
  index('users_referrer_idx').on(t.referrerId),
]);

export const sessions = pgTable('sessions', {
  id: bigserial('id', { mode: 'bigint' }).primaryKey(),
  userId: bigint('user_id', { mode: 'bigint' }).notNull().references(() => users.id),
  /** SHA-256 of the opaque token; the token itself is never stored. */
  tokenHash: varchar('token_hash', { length: 64 }).notNull(),
  userAgent: varchar('user_agent', { length: 200 }),
  /** How the session began (login history's methods) and from which address; the last address used. */
  method: varchar('method', { length: 16 }),
  createdIp: varchar('created_ip', { length: 64 }),
  lastIp: varchar('last_ip', { length: 64 }),
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

// ─── Ledger (server/domain/ledger) ────────────────────────────────────────────────────────────
// Double-entry accounts and immutable transfers after TigerBeetle's data model. Every amount and
// balance is an integer of atomic units (10^-scale of the asset) stored as NUMERIC(38,0): BIGINT
// overflows at 9.2 ETH with 18 decimals, while 38 digits hold 10^20 ETH, far above any real
// balance. Drizzle reads them as `bigint`; no binary float ever holds an amount. The trigger that
// makes ledger_transfers append-only is written by hand in migration 0003 (drizzle-kit does not
// model triggers).

/** An amount or a running total in atomic units: NUMERIC(38,0), read as bigint. */
const atomic = (name: string) => numeric(name, { precision: 38, scale: 0, mode: 'bigint' });

/** Currencies the ledger holds, with their scale (decimal places) and per-transfer ceiling. */
export const ledgerAssets = pgTable('ledger_assets', {
  /** The currency code shown to users and used on the wire ("USDT"). */
  code: varchar('code', { length: 12 }).primaryKey(),
  name: varchar('name', { length: 64 }).notNull(),
  /** Decimal places of one atomic unit: 6 for USDT (1 = 0.000001 USDT), 18 for ETH. */
  scale: smallint('scale').notNull(),
  /** No single transfer may move more: a guard against amounts scaled twice by a caller's bug. */
  transferAmountMax: atomic('transfer_amount_max').notNull(),
  createdAt: createdAt(),
}, (t) => [
  check('ledger_assets_scale_range', sql`${t.scale} between 0 and 18`),
  check('ledger_assets_code_format', sql`${t.code} ~ '^[A-Z0-9]{2,12}$'`),
  check('ledger_assets_transfer_amount_max_positive', sql`${t.transferAmountMax} > 0`),
]);

/**
 * One account per (ledger, owner, asset, kind, shard). `ledger` 1 is real money and 2 the demo
 * (simulated) funds: transfers never cross ledgers. User accounts have an owner and shard 0;
 * system accounts (clearing, fees, house, expenses) have no owner and are split into shards so
 * that the row lock of a busy system account does not serialise every writer. The four running
 * totals are TigerBeetle's; the balance is credits - debits. `entry_count` and `chain_head` are
 * the account's hash chain over its transfers (see server/domain/kernel/ledger/chain.ts).
 */
export const ledgerAccounts = pgTable('ledger_accounts', {
  id: bigserial('id', { mode: 'bigint' }).primaryKey(),
  ledger: smallint('ledger').notNull(),
  ownerUserId: bigint('owner_user_id', { mode: 'bigint' }).references(() => users.id),
  asset: varchar('asset', { length: 12 }).notNull().references(() => ledgerAssets.code),
  kind: varchar('kind', { length: 24 }).notNull(),
  shard: smallint('shard').notNull().default(0),
  /** A user's holding: it can never be spent below zero (credits cover debits, pending included). */
  debitsMustNotExceedCredits: boolean('debits_must_not_exceed_credits').notNull(),
  /** A user's debt (loan): it can never be repaid beyond what is owed. */
  creditsMustNotExceedDebits: boolean('credits_must_not_exceed_debits').notNull(),
  debitsPending: atomic('debits_pending').notNull().default(sql`0`),
  debitsPosted: atomic('debits_posted').notNull().default(sql`0`),
  creditsPending: atomic('credits_pending').notNull().default(sql`0`),
  creditsPosted: atomic('credits_posted').notNull().default(sql`0`),
  entryCount: bigint('entry_count', { mode: 'bigint' }).notNull().default(sql`0`),
  /** SHA-256 (hex) of the account's latest entry; 64 zeros before the first. */
  chainHead: varchar('chain_head', { length: 64 }).notNull(),
  createdAt: createdAt(),
}, (t) => [
  unique('ledger_accounts_key').on(t.ledger, t.ownerUserId, t.asset, t.kind, t.shard).nullsNotDistinct(),
  // Lets a transfer's foreign keys require that both of its accounts share its ledger and asset.
  unique('ledger_accounts_id_ledger_asset_key').on(t.id, t.ledger, t.asset),
  index('ledger_accounts_owner_idx').on(t.ownerUserId),
  check('ledger_accounts_ledger_known', sql`${t.ledger} in (1, 2)`),
  check('ledger_accounts_demo_kind_in_demo_ledger', sql`${t.kind} <> 'demo' or ${t.ledger} = 2`),
  check('ledger_accounts_system_unsharded_owner', sql`${t.ownerUserId} is null or ${t.shard} = 0`),
  check('ledger_accounts_totals_not_negative', sql`${t.debitsPending} >= 0 and ${t.debitsPosted} >= 0 and ${t.creditsPending} >= 0 and ${t.creditsPosted} >= 0`),
  // The balance limits again, below the code that enforces them: the last line of defence.
  check('ledger_accounts_debits_within_credits',
    sql`not ${t.debitsMustNotExceedCredits} or ${t.debitsPending} + ${t.debitsPosted} <= ${t.creditsPosted}`),
  check('ledger_accounts_credits_within_debits',
    sql`not ${t.creditsMustNotExceedDebits} or ${t.creditsPending} + ${t.creditsPosted} <= ${t.debitsPosted}`),
]);

/**
 * Immutable transfers (append-only: a trigger refuses UPDATE, DELETE and TRUNCATE). `id` is the
 * caller's idempotency key. `phase` is 'single' (posted at once), 'pending' (reserves), or 'post'
 * / 'void' resolving the pending transfer `pending_id` (unique: a pending resolves once). Each
 * side records the account's entry number, balance after and chain hash, so a user's ledger
 * entries are read from here and never written separately.
 */
export const ledgerTransfers = pgTable('ledger_transfers', {
  id: varchar('id', { length: 64 }).primaryKey(),
  /** Insertion order; within one account it is the order of the account's entries. */
  seq: bigserial('seq', { mode: 'bigint' }).notNull(),
  ledger: smallint('ledger').notNull(),
  asset: varchar('asset', { length: 12 }).notNull(),
  debitAccountId: bigint('debit_account_id', { mode: 'bigint' }).notNull(),
  creditAccountId: bigint('credit_account_id', { mode: 'bigint' }).notNull(),
  amount: atomic('amount').notNull(),
  kind: varchar('kind', { length: 32 }).notNull(),
  phase: varchar('phase', { length: 8 }).notNull(),
  pendingId: varchar('pending_id', { length: 64 }),
  /** The business object the transfer belongs to ("withdrawal:42"). */
  reference: varchar('reference', { length: 64 }).notNull(),
  remark: varchar('remark', { length: 200 }),
  createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull(),
  debitEntryNo: bigint('debit_entry_no', { mode: 'bigint' }).notNull(),
  creditEntryNo: bigint('credit_entry_no', { mode: 'bigint' }).notNull(),
  /** Posted balance (credits - debits) of each account after this transfer. */
  debitBalanceAfter: atomic('debit_balance_after').notNull(),
  creditBalanceAfter: atomic('credit_balance_after').notNull(),
  debitChainHash: varchar('debit_chain_hash', { length: 64 }).notNull(),
  creditChainHash: varchar('credit_chain_hash', { length: 64 }).notNull(),
}, (t) => [
  uniqueIndex('ledger_transfers_seq_key').on(t.seq),
  uniqueIndex('ledger_transfers_pending_id_key').on(t.pendingId).where(sql`${t.pendingId} is not null`),
  index('ledger_transfers_debit_idx').on(t.debitAccountId, t.seq),
  index('ledger_transfers_credit_idx').on(t.creditAccountId, t.seq),
  index('ledger_transfers_reference_idx').on(t.reference),
  foreignKey({
    name: 'ledger_transfers_debit_account_fk',
    columns: [t.debitAccountId, t.ledger, t.asset],
    foreignColumns: [ledgerAccounts.id, ledgerAccounts.ledger, ledgerAccounts.asset],
  }),
  foreignKey({
    name: 'ledger_transfers_credit_account_fk',
    columns: [t.creditAccountId, t.ledger, t.asset],
    foreignColumns: [ledgerAccounts.id, ledgerAccounts.ledger, ledgerAccounts.asset],
  }),
  foreignKey({ name: 'ledger_transfers_pending_fk', columns: [t.pendingId], foreignColumns: [t.id] }),
  check('ledger_transfers_amount_positive', sql`${t.amount} > 0`),
  check('ledger_transfers_accounts_differ', sql`${t.debitAccountId} <> ${t.creditAccountId}`),
  check('ledger_transfers_phase_known', sql`${t.phase} in ('single', 'pending', 'post', 'void')`),
  check('ledger_transfers_pending_id_iff_resolution', sql`(${t.phase} in ('post', 'void')) = (${t.pendingId} is not null)`),
]);

/**
 * Payout jobs (issue 20, server/domain/kernel/ledger/payouts.ts): one batch money movement between a
 * system account (its shards) and many accounts, credit (system → targets) or debit (targets →
 * system). The row says what the job is and where it stands; `targets_*` / `amount_*` are its
 * progress, exact once the job is done (payout_job_batches is the record they are summed from).
 */
export const payoutJobs = pgTable('payout_jobs', {
  /** The caller's name for the job; the transfer ids are `${id}:${target account id}`. */
  id: varchar('id', { length: 40 }).primaryKey(),
  ledger: smallint('ledger').notNull(),
  asset: varchar('asset', { length: 12 }).notNull().references(() => ledgerAssets.code),
  /** The system account kind on the other side of every transfer (its shard chosen per batch). */
  sourceKind: varchar('source_kind', { length: 24 }).notNull(),
  direction: varchar('direction', { length: 6 }).notNull(),
  /** Transfer kind, reference and remark of every transfer of the job. */
  kind: varchar('kind', { length: 32 }).notNull(),
  reference: varchar('reference', { length: 64 }).notNull(),
  remark: varchar('remark', { length: 200 }),
  batchSize: integer('batch_size').notNull(),
  targetCount: integer('target_count').notNull(),
  amountTotal: atomic('amount_total').notNull(),
  state: varchar('state', { length: 8 }).notNull(),
  targetsPosted: integer('targets_posted').notNull().default(0),
  amountPosted: atomic('amount_posted').notNull().default(sql`0`),
  targetsRefused: integer('targets_refused').notNull().default(0),
  amountRefused: atomic('amount_refused').notNull().default(sql`0`),
  /** Why the last run stopped, when it failed (a resume clears it). */
  error: varchar('error', { length: 500 }),
  createdAt: createdAt(),
  updatedAt: timestamp('updated_at', { withTimezone: true, mode: 'date' }).notNull(),
  finishedAt: timestamp('finished_at', { withTimezone: true, mode: 'date' }),
}, (t) => [
  check('payout_jobs_ledger_known', sql`${t.ledger} in (1, 2)`),
  check('payout_jobs_direction_known', sql`${t.direction} in ('credit', 'debit')`),
  check('payout_jobs_state_known', sql`${t.state} in ('running', 'done', 'failed')`),
  check('payout_jobs_progress_bounded', sql`${t.targetsPosted} + ${t.targetsRefused} <= ${t.targetCount}`),
  index('payout_jobs_state_idx').on(t.state),
]);

/**
 * The targets of a payout job, frozen when the job is made: a resumed job pays exactly the list
 * it started with. `ordinal` orders them; batch n is ordinals [n × batch_size, (n + 1) × batch_size).
 * `refusal` is set when the ledger refused the target's transfer (insufficient balance of a debit).
 * The accounts are checked against the job's ledger and asset when the job is made (no foreign key:
 * one probe per row at 100 000 rows, for accounts that are never deleted).
 */
export const payoutJobTargets = pgTable('payout_job_targets', {
  // No foreign key to payout_jobs either: the targets are written only with their job, in its
  // transaction, and a key check per row is a tenth of the cost of making a 100 000-target job.
  jobId: varchar('job_id', { length: 40 }).notNull(),
  ordinal: integer('ordinal').notNull(),
  accountId: bigint('account_id', { mode: 'bigint' }).notNull(),
  amount: atomic('amount').notNull(),
  refusal: varchar('refusal', { length: 40 }),
}, (t) => [
  primaryKey({ columns: [t.jobId, t.ordinal] }),
  check('payout_job_targets_amount_positive', sql`${t.amount} > 0`),
]);

/**
 * One row per batch of a payout job that the ledger took, written in the batch's own transaction:
 * a batch with a row here is done (a resume skips it), one without has moved no money.
 */
export const payoutJobBatches = pgTable('payout_job_batches', {
  jobId: varchar('job_id', { length: 40 }).notNull().references(() => payoutJobs.id),
  batchNo: integer('batch_no').notNull(),
  shard: smallint('shard').notNull(),
  targetsPosted: integer('targets_posted').notNull(),
  amountPosted: atomic('amount_posted').notNull(),
  targetsRefused: integer('targets_refused').notNull(),
  amountRefused: atomic('amount_refused').notNull(),
  postedAt: timestamp('posted_at', { withTimezone: true, mode: 'date' }).notNull(),
}, (t) => [primaryKey({ columns: [t.jobId, t.batchNo] })]);

// ─── Wallet: currencies, uploads, deposits (owner: "deposits") ───────────────────────────────────
// Which ledger assets users may deposit and withdraw, on which networks, with the platform's
// deposit address and the minimums and fees of each (currency, network); the files users upload
// (deposit proofs); and the deposit requests operators review. Amounts are atomic units of the
// currency in NUMERIC(38,0), as in the ledger. A deposit moves money only when approved, through
// postTransfers; the request row records the decision.

/** A ledger asset offered in the wallet, with the operator-set USDT rate used when the feed has no pair. */
export const walletCurrencies = pgTable('wallet_currencies', {
  code: varchar('code', { length: 12 }).primaryKey().references(() => ledgerAssets.code),
  enabled: boolean('enabled').notNull().default(true),
  sortOrder: smallint('sort_order').notNull().default(0),
  /** USDT per one unit, a decimal string; read when the market feed quotes no <code>USDT pair. */
  usdtRate: numeric('usdt_rate', { precision: 38, scale: 18 }),
  usdtRateUpdatedAt: timestamp('usdt_rate_updated_at', { withTimezone: true, mode: 'date' }),
  createdAt: createdAt(),
}, (t) => [check('wallet_currencies_usdt_rate_positive', sql`${t.usdtRate} is null or ${t.usdtRate} > 0`)]);

/** One network a currency moves on ("TRC20"), its platform deposit address, minimums and fee. */
export const walletNetworks = pgTable('wallet_networks', {
  currency: varchar('currency', { length: 12 }).notNull().references(() => walletCurrencies.code),
  network: varchar('network', { length: 16 }).notNull(),
  depositEnabled: boolean('deposit_enabled').notNull().default(true),
  withdrawalEnabled: boolean('withdrawal_enabled').notNull().default(true),
  /** Where users send deposits on this network; no deposits while unset. */
  depositAddress: varchar('deposit_address', { length: 128 }),
  depositMin: atomic('deposit_min').notNull(),
  withdrawalMin: atomic('withdrawal_min').notNull(),
  withdrawalFee: atomic('withdrawal_fee').notNull(),
  updatedAt: timestamp('updated_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
}, (t) => [
  primaryKey({ columns: [t.currency, t.network] }),
  check('wallet_networks_network_format', sql`${t.network} ~ '^[A-Z0-9]{2,16}$'`),
  check('wallet_networks_amounts_not_negative', sql`${t.depositMin} >= 0 and ${t.withdrawalMin} >= 0 and ${t.withdrawalFee} >= 0`),
]);

/**
 * A file a user uploaded. `id` is random (32 hex digits) and is what the API names; the bytes
 * live in the storage backend under `stored_name`, also random. Served only to the owner and to
 * operators.
 */
export const uploads = pgTable('uploads', {
  id: varchar('id', { length: 32 }).primaryKey(),
  ownerUserId: bigint('owner_user_id', { mode: 'bigint' }).notNull().references(() => users.id),
  purpose: varchar('purpose', { length: 24 }).notNull(),
  contentType: varchar('content_type', { length: 32 }).notNull(),
  storedName: varchar('stored_name', { length: 64 }).notNull(),
  sizeBytes: integer('size_bytes').notNull(),
  width: integer('width'),
  height: integer('height'),
  createdAt: createdAt(),
}, (t) => [index('uploads_owner_idx').on(t.ownerUserId, t.createdAt)]);

/**
 * A deposit request: status 0 under review, 1 delivered (approved: the ledger transfer
 * "recharge:<id>" credited the user), -1 rejected with `reason`. Decided once.
 * `approvals_required` is two when the amount, with what the user had credited in the 24 hours
 * before, passes the currency's threshold (counted when it is made and again at each approval,
 * never lowered); the approval that reaches it credits the deposit.
 */
export const walletRecharges = pgTable('wallet_recharges', {
  id: bigserial('id', { mode: 'bigint' }).primaryKey(),
  userId: bigint('user_id', { mode: 'bigint' }).notNull().references(() => users.id),
  currency: varchar('currency', { length: 12 }).notNull().references(() => ledgerAssets.code),
  network: varchar('network', { length: 16 }).notNull(),
  amount: atomic('amount').notNull(),
  /** The platform address shown when the user applied. */
  depositAddress: varchar('deposit_address', { length: 128 }).notNull(),
  proofFileId: varchar('proof_file_id', { length: 32 }).notNull().references(() => uploads.id),
  txHash: varchar('tx_hash', { length: 128 }),
  status: smallint('status').notNull().default(0),
  reason: varchar('reason', { length: 200 }),
  approvalsRequired: smallint('approvals_required').notNull().default(1),
  /** The operator who decided (operators live in their own table). */
  decidedBy: bigint('decided_by', { mode: 'bigint' }).references(() => operators.id),
  decidedAt: timestamp('decided_at', { withTimezone: true, mode: 'date' }),
  createdAt: createdAt(),
}, (t) => [
  index('wallet_recharges_user_idx').on(t.userId, t.id),
  index('wallet_recharges_status_idx').on(t.status, t.id),
  check('wallet_recharges_status_known', sql`${t.status} in (0, 1, -1)`),
  check('wallet_recharges_amount_positive', sql`${t.amount} > 0`),
  check('wallet_recharges_decided', sql`(${t.status} = 0) = (${t.decidedAt} is null)`),
  check('wallet_recharges_approvals_required_range', sql`${t.approvalsRequired} in (1, 2)`),
]);

/** One row per operator approving a deposit: the primary key refuses the same operator twice. */
export const rechargeApprovals = pgTable('recharge_approvals', {
  rechargeId: bigint('recharge_id', { mode: 'bigint' }).notNull().references(() => walletRecharges.id),
  operatorId: bigint('operator_id', { mode: 'bigint' }).notNull().references(() => operators.id),
  createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull(),
}, (t) => [primaryKey({ columns: [t.rechargeId, t.operatorId] })]);
// ─── end of Wallet: currencies, uploads, deposits ────────────────────────────────────────────────

// ─── The two-operator rule (owner: "ledger", server/domain/kernel/ledger/dualControl.ts) ─────────────────
/**
 * One row per decision that created or paid out money under the two-operator rule: a deposit
 * credited, a withdrawal approved, a reserve or pool funded. The rule sums these rows for a user's
 * and for an operator's last 24 hours, in USDT at the price recorded at the decision
 * (`value_usdt`, USDT atomic units; null when the currency had no price), so a sum split across
 * currencies, users or kinds is counted together. `solo_operator_id` names the operator who decided
 * alone (null when two approved). A withdrawal that later fails or is refused gave the money back:
 * its row is voided, never deleted.
 */
export const dualControlDecisions = pgTable('dual_control_decisions', {
  id: bigserial('id', { mode: 'bigint' }).primaryKey(),
  kind: varchar('kind', { length: 24 }).notNull(),
  subjectId: bigint('subject_id', { mode: 'bigint' }).notNull(),
  userId: bigint('user_id', { mode: 'bigint' }).references(() => users.id),
  soloOperatorId: bigint('solo_operator_id', { mode: 'bigint' }).references(() => operators.id),
  approvals: smallint('approvals').notNull(),
  asset: varchar('asset', { length: 16 }).notNull(),
  amount: numeric('amount', { precision: 38, scale: 0, mode: 'bigint' }).notNull(),
  valueUsdt: numeric('value_usdt', { precision: 38, scale: 0, mode: 'bigint' }),
  /** Where the price came from: "par", "tick:<id>", "candle", "operator", or null (unpriced). */
  priceSource: varchar('price_source', { length: 40 }),
  decidedAt: timestamp('decided_at', { withTimezone: true, mode: 'date' }).notNull(),
  voidedAt: timestamp('voided_at', { withTimezone: true, mode: 'date' }),
}, (t) => [
  unique('dual_control_decisions_subject_unique').on(t.kind, t.subjectId),
  index('dual_control_decisions_user_idx').on(t.userId, t.decidedAt),
  index('dual_control_decisions_operator_idx').on(t.soloOperatorId, t.decidedAt),
]);

/**
 * A change to a setting that decides what the house pays (a two-operator threshold raised, a
 * product put on sale, welfare and VIP rewards, team commission rates): requested by one operator,
 * applied only when a second, different operator approves (server/domain/kernel/settingChanges.ts).
 */
export const settingChanges = pgTable('setting_changes', {
  id: bigserial('id', { mode: 'bigint' }).primaryKey(),
  /** What is changed: "dual_threshold", "vip_reward", "welfare_task", "team_rates", "product_open". */
  setting: varchar('setting', { length: 32 }).notNull(),
  /** Which one (a currency, a level, a task id, a product id), or "" for a single setting. */
  target: varchar('target', { length: 64 }).notNull(),
  before: jsonb('before'),
  after: jsonb('after').notNull(),
  status: varchar('status', { length: 12 }).notNull(),
  requestedBy: bigint('requested_by', { mode: 'bigint' }).notNull().references(() => operators.id),
  decidedBy: bigint('decided_by', { mode: 'bigint' }).references(() => operators.id),
  reason: varchar('reason', { length: 300 }),
  createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull(),
  decidedAt: timestamp('decided_at', { withTimezone: true, mode: 'date' }),
}, (t) => [index('setting_changes_status_idx').on(t.status, t.id)]);

// ─── Operators and audit (owner: "operators") ────────────────────────────────────────────────
// Back-office staff are not users: their own table, their own sessions (short idle and absolute
// expiry) and a second factor (TOTP). Every operator action is recorded in audit_log in the
// transaction that performs it (server/domain/kernel/audit.ts).

export const operators = pgTable('operators', {
  id: bigserial('id', { mode: 'bigint' }).primaryKey(),
  /** Lower-cased: an operator logs in with any spelling of the address. */
  email: varchar('email', { length: 254 }).notNull(),
  /** 'admin' or 'finance' (OperatorRole). */
  role: varchar('role', { length: 16 }).notNull(),
  passwordHash: text('password_hash').notNull(),
  /** Base32 TOTP secret (RFC 6238, SHA-1, 6 digits, 30 s). */
  totpSecret: varchar('totp_secret', { length: 64 }).notNull(),
  /** The time step of the last TOTP code accepted: a code is good once (no replay within its window). */
  totpLastStep: bigint('totp_last_step', { mode: 'bigint' }),
  disabled: boolean('disabled').notNull().default(false),
  createdAt: createdAt(),
}, (t) => [
  uniqueIndex('operators_email_key').on(t.email),
  check('operators_email_lower', sql`${t.email} = lower(${t.email})`),
  check('operators_role_known', sql`${t.role} in ('admin', 'finance')`),
]);

export const operatorSessions = pgTable('operator_sessions', {
  id: bigserial('id', { mode: 'bigint' }).primaryKey(),
  operatorId: bigint('operator_id', { mode: 'bigint' }).notNull().references(() => operators.id),
  /** SHA-256 of the opaque token; the token itself is never stored. */
  tokenHash: varchar('token_hash', { length: 64 }).notNull(),
  lastUsedAt: timestamp('last_used_at', { withTimezone: true, mode: 'date' }).notNull(),
  expiresAt: timestamp('expires_at', { withTimezone: true, mode: 'date' }).notNull(),
  revokedAt: timestamp('revoked_at', { withTimezone: true, mode: 'date' }),
  createdAt: createdAt(),
}, (t) => [
  uniqueIndex('operator_sessions_token_hash_key').on(t.tokenHash),
  index('operator_sessions_operator_idx').on(t.operatorId),
]);

/** What an operator did, to what, for which user, with the state before and after and why. */
export const auditLog = pgTable('audit_log', {
  id: bigserial('id', { mode: 'bigint' }).primaryKey(),
  operatorId: bigint('operator_id', { mode: 'bigint' }).notNull().references(() => operators.id),
  /** A dotted verb ("ledger.check", "withdrawal.approve"). */
  action: varchar('action', { length: 64 }).notNull(),
  targetType: varchar('target_type', { length: 32 }).notNull(),
  targetId: varchar('target_id', { length: 64 }),
  userId: bigint('user_id', { mode: 'bigint' }).references(() => users.id),
  before: jsonb('before'),
  after: jsonb('after'),
  reason: varchar('reason', { length: 500 }),
  createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull(),
}, (t) => [
  index('audit_log_created_idx').on(t.createdAt, t.id),
  index('audit_log_operator_idx').on(t.operatorId, t.id),
  index('audit_log_user_idx').on(t.userId, t.id),
  index('audit_log_action_idx').on(t.action, t.id),
]);

// ─── Withdrawals (owner: "withdrawals"; server/domain/core/wallet/withdrawals.ts) ──────────────────
// Where a user's withdrawals go (a bank card or a chain address), the withdrawal password (apart
// from the login password: argon2id, set with a code sent to the user's own address), and the
// withdrawal requests. A request's money is held by a pending ledger transfer (user spot →
// withdrawal clearing, amount + fee) from the moment it is made; the operators' decisions post or
// void it. Amounts are atomic units in NUMERIC(38,0), like the ledger's.

/** A user's bound payout destinations. `type` says which group of fields is set. */
export const withdrawalDestinations = pgTable('withdrawal_destinations', {
  id: bigserial('id', { mode: 'bigint' }).primaryKey(),
  userId: bigint('user_id', { mode: 'bigint' }).notNull().references(() => users.id),
  /** 'bank' or 'chain'. */
  type: varchar('type', { length: 8 }).notNull(),
  bankName: varchar('bank_name', { length: 64 }),
  realName: varchar('real_name', { length: 64 }),
  /** Digits and capital letters only (an IBAN's spaces are dropped). */
  cardNumber: varchar('card_number', { length: 34 }),
  currency: varchar('currency', { length: 12 }).references(() => ledgerAssets.code),
  network: varchar('network', { length: 16 }),
  /** As validated for its network: an EVM address in its EIP-55 form, bech32 in lower case. */
  address: varchar('address', { length: 100 }),
  createdAt: createdAt(),
  updatedAt: timestamp('updated_at', { withTimezone: true, mode: 'date' }).notNull(),
}, (t) => [
  index('withdrawal_destinations_user_idx').on(t.userId, t.id),
  check('withdrawal_destinations_type_known', sql`${t.type} in ('bank', 'chain')`),
  check('withdrawal_destinations_fields_of_type', sql`case when ${t.type} = 'bank'
    then ${t.bankName} is not null and ${t.realName} is not null and ${t.cardNumber} is not null
      and ${t.currency} is null and ${t.network} is null and ${t.address} is null
    else ${t.currency} is not null and ${t.network} is not null and ${t.address} is not null
      and ${t.bankName} is null and ${t.realName} is null and ${t.cardNumber} is null end`),
]);

/** A user's withdrawal password (argon2id), one row once it is set. */
export const withdrawPasswords = pgTable('withdraw_passwords', {
  userId: bigint('user_id', { mode: 'bigint' }).primaryKey().references(() => users.id),
  passwordHash: text('password_hash').notNull(),
  updatedAt: timestamp('updated_at', { withTimezone: true, mode: 'date' }).notNull(),
});

/**
 * Withdrawal requests. `status` is spec §4's: 0 under review, -1 rejected, 2 paid out, -2 failed.
 * The destination is copied in (a later edit of it does not redirect money under review).
 * `approvals_required` is fixed when the request is made (two above the currency's threshold);
 * `approved_at` is set by the approval that reaches it, and only then may it be paid or failed.
 */
export const withdrawals = pgTable('withdrawals', {
  id: bigserial('id', { mode: 'bigint' }).primaryKey(),
  userId: bigint('user_id', { mode: 'bigint' }).notNull().references(() => users.id),
  currency: varchar('currency', { length: 12 }).notNull().references(() => ledgerAssets.code),
  /** The chain network, or 'BANK' for a bank payout. */
  network: varchar('network', { length: 16 }).notNull(),
  /** What the user receives, and the fee on top; the pending transfer holds their sum. */
  amount: atomic('amount').notNull(),
  fee: atomic('fee').notNull(),
  destinationId: bigint('destination_id', { mode: 'bigint' }).notNull().references(() => withdrawalDestinations.id),
  destinationType: varchar('destination_type', { length: 8 }).notNull(),
  bankName: varchar('bank_name', { length: 64 }),
  realName: varchar('real_name', { length: 64 }),
  cardNumber: varchar('card_number', { length: 34 }),
  address: varchar('address', { length: 100 }),
  status: smallint('status').notNull().default(0),
  /** The operator's reason for a rejection or a failure, shown to the user. */
  reason: varchar('reason', { length: 200 }),
  /** The payout's reference (a transaction hash, a bank reference), shown to the user. */
  payoutReference: varchar('payout_reference', { length: 128 }),
  /** The ledger transfer holding amount + fee while the request is under review. */
  holdTransferId: varchar('hold_transfer_id', { length: 64 }).notNull(),
  approvalsRequired: smallint('approvals_required').notNull(),
  approvedAt: timestamp('approved_at', { withTimezone: true, mode: 'date' }),
  decidedAt: timestamp('decided_at', { withTimezone: true, mode: 'date' }),
  decidedBy: bigint('decided_by', { mode: 'bigint' }),
  createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull(),
}, (t) => [
  index('withdrawals_user_idx').on(t.userId, t.id),
  index('withdrawals_status_idx').on(t.status, t.id),
  uniqueIndex('withdrawals_hold_transfer_key').on(t.holdTransferId),
  check('withdrawals_status_known', sql`${t.status} in (0, -1, 2, -2)`),
  check('withdrawals_amount_positive', sql`${t.amount} > 0 and ${t.fee} >= 0`),
  check('withdrawals_approvals_required_range', sql`${t.approvalsRequired} in (1, 2)`),
  check('withdrawals_decided', sql`(${t.status} = 0) = (${t.decidedAt} is null)`),
  check('withdrawals_paid_or_failed_after_approval', sql`${t.status} not in (2, -2) or ${t.approvedAt} is not null`),
]);

/** One row per operator approving a withdrawal: the primary key refuses the same operator twice. */
export const withdrawalApprovals = pgTable('withdrawal_approvals', {
  withdrawalId: bigint('withdrawal_id', { mode: 'bigint' }).notNull().references(() => withdrawals.id),
  operatorId: bigint('operator_id', { mode: 'bigint' }).notNull().references(() => operators.id),
  createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull(),
}, (t) => [primaryKey({ columns: [t.withdrawalId, t.operatorId] })]);

/** Per currency, the amount above which a withdrawal needs two different operators' approval. */
export const withdrawalSettings = pgTable('withdrawal_settings', {
  currency: varchar('currency', { length: 12 }).primaryKey().references(() => ledgerAssets.code),
  dualApprovalAbove: atomic('dual_approval_above').notNull(),
  updatedAt: timestamp('updated_at', { withTimezone: true, mode: 'date' }).notNull(),
}, (t) => [check('withdrawal_settings_threshold_not_negative', sql`${t.dualApprovalAbove} >= 0`)]);
// ─── end of Withdrawals ──────────────────────────────────────────────────────────────────────────

// ─── Proof of liabilities (owner: "liabilities"; server/domain/core/wallet/liabilities.ts) ─────────
// Each publication of the Merkle sum tree over users' real balances (src/api/contract/liabilities.ts
// documents the hashing): the root and totals that are published, every node (so a user's path is
// a handful of indexed reads) and each user's salt and leaf position. Hashes and salts are 64 hex
// digits; sums are JSON arrays of atomic-unit decimal strings in the publication's asset order.

/** One publication. `day` (UTC, YYYY-MM-DD) is unique among daily ones: one a day, whoever leads. */
export const liabilityRoots = pgTable('liability_roots', {
  id: bigserial('id', { mode: 'bigint' }).primaryKey(),
  root: varchar('root', { length: 64 }).notNull(),
  leafCount: integer('leaf_count').notNull(),
  /** [{currency, scale}] in the order of every leaf's and node's values. */
  assets: jsonb('assets').notNull(),
  /** Atomic-unit decimal strings, one per asset: the top node's sums. */
  totals: jsonb('totals').notNull(),
  /** 'daily' (the engine instance's timer) or 'operator'. */
  trigger: varchar('trigger', { length: 8 }).notNull(),
  operatorId: bigint('operator_id', { mode: 'bigint' }).references(() => operators.id),
  day: varchar('day', { length: 10 }).notNull(),
  /** When the balances were read. */
  publishedAt: timestamp('published_at', { withTimezone: true, mode: 'date' }).notNull(),
}, (t) => [
  uniqueIndex('liability_roots_daily_key').on(t.day).where(sql`${t.trigger} = 'daily'`),
  index('liability_roots_published_idx').on(t.publishedAt, t.id),
  check('liability_roots_trigger_known', sql`${t.trigger} in ('daily', 'operator')`),
]);

/** Every node of a publication's tree: level 0 the leaves, the last level the top node. */
export const liabilityNodes = pgTable('liability_nodes', {
  rootId: bigint('root_id', { mode: 'bigint' }).notNull().references(() => liabilityRoots.id),
  level: smallint('level').notNull(),
  position: integer('position').notNull(),
  hash: varchar('hash', { length: 64 }).notNull(),
  sums: jsonb('sums').notNull(),
}, (t) => [primaryKey({ columns: [t.rootId, t.level, t.position] })]);

/** Each user's leaf in a publication: its position at level 0, salt and leaf id. */
export const liabilityLeaves = pgTable('liability_leaves', {
  rootId: bigint('root_id', { mode: 'bigint' }).notNull().references(() => liabilityRoots.id),
  userId: bigint('user_id', { mode: 'bigint' }).notNull().references(() => users.id),
  position: integer('position').notNull(),
  salt: varchar('salt', { length: 64 }).notNull(),
  leafId: varchar('leaf_id', { length: 64 }).notNull(),
}, (t) => [primaryKey({ columns: [t.rootId, t.userId] })]);
// ─── end of Proof of liabilities ─────────────────────────────────────────────────────────────────

// ─── Trading (issue 10) ───────────────────────────────────────────────────────────────────────

const ms = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

/**
 * Contract settings of each symbol, edited by operators (audited). Rates are parts per million;
 * quantities in 10^-quantityPrecision of the base asset, margins atomic USDT, the spread in price units.
 */
export const tradeSymbolSettings = pgTable('trade_symbol_settings', {
  symbol: varchar('symbol', { length: 20 }).primaryKey(),
  enabled: boolean('enabled').notNull(),
  /** The leverage choices, ascending. */
  leverages: jsonb('leverages').$type<number[]>().notNull(),
  quantityMin: bigint('quantity_min', { mode: 'bigint' }).notNull(),
  quantityMax: bigint('quantity_max', { mode: 'bigint' }).notNull(),
  marginMin: atomic('margin_min').notNull(),
  marginMax: atomic('margin_max').notNull(),
  feePpm: integer('fee_ppm').notNull(),
  maintenancePpm: integer('maintenance_ppm').notNull(),
  spreadUnits: bigint('spread_units', { mode: 'bigint' }).notNull(),
  /**
   * Whether real (not demo) contracts, second contracts and swaps may use this symbol while its
   * prices come from the simulator. A fresh install allows it (the evaluation setup); an operator
   * running real funds without a venue for the symbol switches it off in the back office.
   */
  simulatedFeedRealTrading: boolean('simulated_feed_real_trading').notNull().default(true),
  updatedAt: ms('updated_at').notNull().defaultNow(),
}, (t) => [
  check('trade_symbol_settings_bounds', sql`${t.quantityMin} > 0 and ${t.quantityMax} >= ${t.quantityMin} and ${t.marginMin} > 0 and ${t.marginMax} >= ${t.marginMin}`),
  check('trade_symbol_settings_rates', sql`${t.feePpm} between 0 and 100000 and ${t.maintenancePpm} between 0 and 500000 and ${t.spreadUnits} >= 0`),
]);

/**
 * Contract positions (isolated margin). The settings that priced it are copied in at open (spread,
 * fee and maintenance rates), so a later change of settings never changes a running position's
 * arithmetic. `version` grows with every change of its levels; the trigger engine keeps the
 * version it indexed. The receipt columns are set once, by the settlement that closes it.
 */
export const tradePositions = pgTable('trade_positions', {
  id: bigserial('id', { mode: 'bigint' }).primaryKey(),
  userId: bigint('user_id', { mode: 'bigint' }).notNull().references(() => users.id),
  /** 1 real, 2 demo (ledger/accounts.ts). */
  ledger: smallint('ledger').notNull(),
  symbol: varchar('symbol', { length: 20 }).notNull(),
  direction: varchar('direction', { length: 5 }).notNull(),
  leverage: integer('leverage').notNull(),
  quantity: bigint('quantity', { mode: 'bigint' }).notNull(),
  margin: atomic('margin').notNull(),
  openPrice: bigint('open_price', { mode: 'bigint' }).notNull(),
  spreadUnits: bigint('spread_units', { mode: 'bigint' }).notNull(),
  feePpm: integer('fee_ppm').notNull(),
  maintenancePpm: integer('maintenance_ppm').notNull(),
  openFee: atomic('open_fee').notNull(),
  takeProfit: bigint('take_profit', { mode: 'bigint' }),
  stopLoss: bigint('stop_loss', { mode: 'bigint' }),
  liquidationPrice: bigint('liquidation_price', { mode: 'bigint' }),
  status: varchar('status', { length: 10 }).notNull(),
  clientOrderId: varchar('client_order_id', { length: 64 }).notNull(),
  /** SHA-256 of the request's fields: the same clientOrderId with other fields is refused. */
  requestHash: varchar('request_hash', { length: 64 }).notNull(),
  entryTickId: bigint('entry_tick_id', { mode: 'bigint' }).notNull(),
  exitTickId: bigint('exit_tick_id', { mode: 'bigint' }),
  closePrice: bigint('close_price', { mode: 'bigint' }),
  closeReason: varchar('close_reason', { length: 16 }),
  closeFee: atomic('close_fee'),
  grossPnl: numeric('gross_pnl', { precision: 38, scale: 0, mode: 'bigint' }),
  pnl: numeric('pnl', { precision: 38, scale: 0, mode: 'bigint' }),
  shortfall: atomic('shortfall'),
  version: integer('version').notNull().default(1),
  createdAt: ms('created_at').notNull(),
  updatedAt: ms('updated_at').notNull(),
  closedAt: ms('closed_at'),
  /**
   * Issue 23: a position opened inside a trading competition. Its margin comes from and its result
   * returns to the user's `competition` account (real ledger) instead of spot; null otherwise.
   */
  competitionId: bigint('competition_id', { mode: 'bigint' }),
}, (t) => [
  uniqueIndex('trade_positions_client_order_key').on(t.userId, t.ledger, t.clientOrderId),
  index('trade_positions_user_idx').on(t.userId, t.ledger, t.status, t.id),
  index('trade_positions_running_idx').on(t.status, t.updatedAt),
  check('trade_positions_ledger_known', sql`${t.ledger} in (1, 2)`),
  check('trade_positions_direction_known', sql`${t.direction} in ('long', 'short')`),
  check('trade_positions_status_known', sql`${t.status} in ('running', 'settling', 'closed')`),
  check('trade_positions_closed_has_receipt', sql`(${t.status} = 'closed') = (${t.exitTickId} is not null and ${t.closeReason} is not null and ${t.pnl} is not null and ${t.closedAt} is not null)`),
  check('trade_positions_size_positive', sql`${t.quantity} > 0 and ${t.margin} > 0 and ${t.leverage} >= 1`),
]);

/** Second-contract settings per symbol: durations with their payout rates (ppm), stake bounds. */
export const secondContractSets = pgTable('second_contract_sets', {
  symbol: varchar('symbol', { length: 20 }).primaryKey(),
  enabled: boolean('enabled').notNull(),
  durations: jsonb('durations').$type<Array<{ seconds: number; payoutPpm: number }>>().notNull(),
  amountMin: atomic('amount_min').notNull(),
  amountMax: atomic('amount_max').notNull(),
  updatedAt: ms('updated_at').notNull().defaultNow(),
}, (t) => [check('second_contract_sets_bounds', sql`${t.amountMin} > 0 and ${t.amountMax} >= ${t.amountMin}`)]);

/**
 * Second (timed) contracts. Entry: the first recorded tick at or after `accepted_at`; exit: the
 * first at or after `expires_at`; both are filled in by the settlement engine and retained.
 */
export const secondContractOrders = pgTable('second_contract_orders', {
  id: bigserial('id', { mode: 'bigint' }).primaryKey(),
  userId: bigint('user_id', { mode: 'bigint' }).notNull().references(() => users.id),
  ledger: smallint('ledger').notNull(),
  symbol: varchar('symbol', { length: 20 }).notNull(),
  direction: varchar('direction', { length: 4 }).notNull(),
  durationSeconds: integer('duration_seconds').notNull(),
  payoutPpm: integer('payout_ppm').notNull(),
  amount: atomic('amount').notNull(),
  status: varchar('status', { length: 5 }).notNull(),
  clientOrderId: varchar('client_order_id', { length: 64 }).notNull(),
  requestHash: varchar('request_hash', { length: 64 }).notNull(),
  acceptedAt: ms('accepted_at').notNull(),
  expiresAt: ms('expires_at').notNull(),
  entryTickId: bigint('entry_tick_id', { mode: 'bigint' }),
  entryPrice: bigint('entry_price', { mode: 'bigint' }),
  exitTickId: bigint('exit_tick_id', { mode: 'bigint' }),
  exitPrice: bigint('exit_price', { mode: 'bigint' }),
  payout: atomic('payout'),
  settledAt: ms('settled_at'),
}, (t) => [
  uniqueIndex('second_contract_orders_client_order_key').on(t.userId, t.ledger, t.clientOrderId),
  index('second_contract_orders_user_idx').on(t.userId, t.ledger, t.status, t.id),
  index('second_contract_orders_open_idx').on(t.status, t.expiresAt),
  check('second_contract_orders_ledger_known', sql`${t.ledger} in (1, 2)`),
  check('second_contract_orders_direction_known', sql`${t.direction} in ('up', 'down')`),
  check('second_contract_orders_status_known', sql`${t.status} in ('open', 'won', 'lost', 'draw')`),
  check('second_contract_orders_settled', sql`(${t.status} = 'open') = (${t.settledAt} is null)`),
  check('second_contract_orders_amount_positive', sql`${t.amount} > 0`),
]);

/** The flash swap's settings: one row (id 1). */
export const swapSettings = pgTable('swap_settings', {
  id: smallint('id').primaryKey(),
  enabled: boolean('enabled').notNull(),
  feePpm: integer('fee_ppm').notNull(),
  spreadPpm: integer('spread_ppm').notNull(),
  quoteTtlMs: integer('quote_ttl_ms').notNull(),
  updatedAt: ms('updated_at').notNull().defaultNow(),
}, (t) => [check('swap_settings_one_row', sql`${t.id} = 1`)]);

/** Quotes handed out; one executes at most once (`used_at`), before `expires_at`. */
export const swapQuotes = pgTable('swap_quotes', {
  id: varchar('id', { length: 64 }).primaryKey(),
  userId: bigint('user_id', { mode: 'bigint' }).notNull().references(() => users.id),
  fromAsset: varchar('from_asset', { length: 12 }).notNull(),
  toAsset: varchar('to_asset', { length: 12 }).notNull(),
  amount: atomic('amount').notNull(),
  fee: atomic('fee').notNull(),
  receive: atomic('receive').notNull(),
  rate: varchar('rate', { length: 80 }).notNull(),
  tickIds: jsonb('tick_ids').$type<string[]>().notNull(),
  createdAt: ms('created_at').notNull(),
  expiresAt: ms('expires_at').notNull(),
  usedAt: ms('used_at'),
}, (t) => [index('swap_quotes_user_idx').on(t.userId, t.createdAt)]);

/** Executed swaps, one per quote. */
export const swapOrders = pgTable('swap_orders', {
  id: bigserial('id', { mode: 'bigint' }).primaryKey(),
  quoteId: varchar('quote_id', { length: 64 }).notNull().references(() => swapQuotes.id),
  userId: bigint('user_id', { mode: 'bigint' }).notNull().references(() => users.id),
  fromAsset: varchar('from_asset', { length: 12 }).notNull(),
  toAsset: varchar('to_asset', { length: 12 }).notNull(),
  amount: atomic('amount').notNull(),
  fee: atomic('fee').notNull(),
  receive: atomic('receive').notNull(),
  rate: varchar('rate', { length: 80 }).notNull(),
  tickIds: jsonb('tick_ids').$type<string[]>().notNull(),
  createdAt: ms('created_at').notNull(),
}, (t) => [uniqueIndex('swap_orders_quote_key').on(t.quoteId), index('swap_orders_user_idx').on(t.userId, t.id)]);

// ─── Identity and account security (issue 11) ────────────────────────────────────────────────
// KYC applications and the levels' limits; Google Authenticator (TOTP) with recovery codes;
// wallet (Sign-In with Ethereum), OpenID Connect and passkey logins; sessions' devices and the
// login history. Secrets at rest are encrypted (TOTP) or hashed (recovery codes, nonces, states).

/**
 * A verification request: level 1 basic (name, ID type and number, front and back photos),
 * level 2 advanced (current address, emergency contact). Status 'pending' | 'approved' |
 * 'rejected' (with `reason`); a rejected application may be followed by a new one. At most one
 * pending application per user and level (partial unique index).
 */
export const kycApplications = pgTable('kyc_applications', {
  id: bigserial('id', { mode: 'bigint' }).primaryKey(),
  userId: bigint('user_id', { mode: 'bigint' }).notNull().references(() => users.id),
  level: smallint('level').notNull(),
  status: varchar('status', { length: 10 }).notNull().default('pending'),
  /** Basic: { surname, firstName, idType: 'passport'|'id_card', idNumber }; advanced: address and emergency contact. */
  details: jsonb('details').notNull(),
  frontUploadId: varchar('front_upload_id', { length: 32 }).references(() => uploads.id),
  backUploadId: varchar('back_upload_id', { length: 32 }).references(() => uploads.id),
  reason: varchar('reason', { length: 500 }),
  decidedBy: bigint('decided_by', { mode: 'bigint' }).references(() => operators.id),
  decidedAt: timestamp('decided_at', { withTimezone: true, mode: 'date' }),
  createdAt: createdAt(),
}, (t) => [
  index('kyc_applications_user_idx').on(t.userId, t.createdAt),
  index('kyc_applications_status_idx').on(t.status, t.createdAt),
  uniqueIndex('kyc_applications_one_pending').on(t.userId, t.level).where(sql`${t.status} = 'pending'`),
  check('kyc_applications_level', sql`${t.level} in (1, 2)`),
  check('kyc_applications_status_known', sql`${t.status} in ('pending', 'approved', 'rejected')`),
]);

/**
 * What each verification level unlocks (0 unverified, 1 basic, 2 advanced), edited in the back
 * office: the daily withdrawal limit in USDT atomic units (null: no limit), the loan limit, and
 * whether investment products are open.
 */
export const kycLevelSettings = pgTable('kyc_level_settings', {
  level: smallint('level').primaryKey(),
  withdrawDailyLimit: numeric('withdraw_daily_limit', { precision: 38, scale: 0 }),
  loanLimit: numeric('loan_limit', { precision: 38, scale: 0 }).notNull().default('0'),
  productsOpen: boolean('products_open').notNull().default(false),
  updatedAt: timestamp('updated_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
});

/** A user's Google Authenticator binding: the secret encrypted at rest, the last step accepted. */
export const userTotp = pgTable('user_totp', {
  userId: bigint('user_id', { mode: 'bigint' }).primaryKey().references(() => users.id),
  secretEncrypted: text('secret_encrypted').notNull(),
  lastStep: bigint('last_step', { mode: 'bigint' }),
  boundAt: timestamp('bound_at', { withTimezone: true, mode: 'date' }).notNull(),
});

/** A secret offered by generateGoogleKey and not yet confirmed with a code; expires. */
export const userTotpPending = pgTable('user_totp_pending', {
  userId: bigint('user_id', { mode: 'bigint' }).primaryKey().references(() => users.id),
  secretEncrypted: text('secret_encrypted').notNull(),
  expiresAt: timestamp('expires_at', { withTimezone: true, mode: 'date' }).notNull(),
});

/** Single-use recovery codes of a binding, stored hashed; replaced when the user binds again. */
export const userRecoveryCodes = pgTable('user_recovery_codes', {
  id: bigserial('id', { mode: 'bigint' }).primaryKey(),
  userId: bigint('user_id', { mode: 'bigint' }).notNull().references(() => users.id),
  codeHash: varchar('code_hash', { length: 64 }).notNull(),
  usedAt: timestamp('used_at', { withTimezone: true, mode: 'date' }),
  createdAt: createdAt(),
}, (t) => [index('user_recovery_codes_user_idx').on(t.userId)]);

/** An Ethereum address that logs in to an account (EIP-4361); lower-cased, one account each. */
export const userWallets = pgTable('user_wallets', {
  address: varchar('address', { length: 42 }).primaryKey(),
  userId: bigint('user_id', { mode: 'bigint' }).notNull().references(() => users.id),
  chainId: integer('chain_id').notNull(),
  lastUsedAt: timestamp('last_used_at', { withTimezone: true, mode: 'date' }),
  createdAt: createdAt(),
}, (t) => [
  index('user_wallets_user_idx').on(t.userId),
  check('user_wallets_address_lower', sql`${t.address} = lower(${t.address})`),
]);

/** A single-use Sign-In with Ethereum nonce; `linkUserId` when a logged-in user links a wallet. */
export const siweNonces = pgTable('siwe_nonces', {
  nonce: varchar('nonce', { length: 64 }).primaryKey(),
  linkUserId: bigint('link_user_id', { mode: 'bigint' }).references(() => users.id),
  expiresAt: timestamp('expires_at', { withTimezone: true, mode: 'date' }).notNull(),
  usedAt: timestamp('used_at', { withTimezone: true, mode: 'date' }),
  createdAt: createdAt(),
});

/** An OpenID Connect identity (issuer's `sub` at a configured provider) linked to an account. */
export const userOidcIdentities = pgTable('user_oidc_identities', {
  id: bigserial('id', { mode: 'bigint' }).primaryKey(),
  provider: varchar('provider', { length: 32 }).notNull(),
  issuer: varchar('issuer', { length: 300 }).notNull(),
  subject: varchar('subject', { length: 255 }).notNull(),
  userId: bigint('user_id', { mode: 'bigint' }).notNull().references(() => users.id),
  email: varchar('email', { length: 254 }),
  lastUsedAt: timestamp('last_used_at', { withTimezone: true, mode: 'date' }),
  createdAt: createdAt(),
}, (t) => [
  uniqueIndex('user_oidc_identities_subject_key').on(t.issuer, t.subject),
  index('user_oidc_identities_user_idx').on(t.userId),
]);

/**
 * An authorization request in flight: `state` (hashed) names it, the PKCE verifier and the nonce
 * are kept for the callback; single use, expires in minutes. `linkUserId` when a logged-in user
 * links the identity.
 */
export const oidcLoginStates = pgTable('oidc_login_states', {
  stateHash: varchar('state_hash', { length: 64 }).primaryKey(),
  provider: varchar('provider', { length: 32 }).notNull(),
  codeVerifier: varchar('code_verifier', { length: 128 }).notNull(),
  nonce: varchar('nonce', { length: 128 }).notNull(),
  linkUserId: bigint('link_user_id', { mode: 'bigint' }).references(() => users.id),
  /** The session that started a link: it must still be alive at the callback. */
  linkSessionId: bigint('link_session_id', { mode: 'bigint' }).references(() => sessions.id),
  /**
   * SHA-256 of the random value in the browser-binding cookie set at the start (RFC 9700 §4.7):
   * the callback is completed only by the browser that started the flow.
   */
  browserBindingHash: varchar('browser_binding_hash', { length: 64 }),
  returnTo: varchar('return_to', { length: 200 }),
  expiresAt: timestamp('expires_at', { withTimezone: true, mode: 'date' }).notNull(),
  usedAt: timestamp('used_at', { withTimezone: true, mode: 'date' }),
  createdAt: createdAt(),
});

/** A WebAuthn credential (passkey) of a user: public key (COSE, base64url) and signature counter. */
export const userPasskeys = pgTable('user_passkeys', {
  credentialId: varchar('credential_id', { length: 512 }).primaryKey(),
  userId: bigint('user_id', { mode: 'bigint' }).notNull().references(() => users.id),
  publicKey: text('public_key').notNull(),
  counter: bigint('counter', { mode: 'bigint' }).notNull().default(sql`0`),
  transports: jsonb('transports'),
  deviceType: varchar('device_type', { length: 16 }),
  backedUp: boolean('backed_up').notNull().default(false),
  name: varchar('name', { length: 64 }),
  lastUsedAt: timestamp('last_used_at', { withTimezone: true, mode: 'date' }),
  /** When a login presented a signature counter that went backwards: the credential may have been copied. */
  flaggedAt: timestamp('flagged_at', { withTimezone: true, mode: 'date' }),
  createdAt: createdAt(),
}, (t) => [index('user_passkeys_user_idx').on(t.userId)]);

/** A WebAuthn challenge handed out once: 'register' (a logged-in user) or 'login'; single use. */
export const webauthnChallenges = pgTable('webauthn_challenges', {
  id: varchar('id', { length: 64 }).primaryKey(),
  challenge: varchar('challenge', { length: 128 }).notNull(),
  purpose: varchar('purpose', { length: 10 }).notNull(),
  userId: bigint('user_id', { mode: 'bigint' }).references(() => users.id),
  expiresAt: timestamp('expires_at', { withTimezone: true, mode: 'date' }).notNull(),
  usedAt: timestamp('used_at', { withTimezone: true, mode: 'date' }),
  createdAt: createdAt(),
});

/**
 * Every login attempt that named an existing account, successful or not: how (password, code,
 * google, wallet, oidc, passkey, guest, register), from where (address, user agent) and whether
 * the device was new to the account (a notice went out).
 */
export const loginHistory = pgTable('login_history', {
  id: bigserial('id', { mode: 'bigint' }).primaryKey(),
  userId: bigint('user_id', { mode: 'bigint' }).notNull().references(() => users.id),
  method: varchar('method', { length: 16 }).notNull(),
  success: boolean('success').notNull(),
  ip: varchar('ip', { length: 64 }),
  userAgent: varchar('user_agent', { length: 200 }),
  newDevice: boolean('new_device').notNull().default(false),
  /** The device key: the user agent's browser family and OS ("Chrome on Android"). */
  device: varchar('device', { length: 64 }),
  sessionId: bigint('session_id', { mode: 'bigint' }).references(() => sessions.id),
  createdAt: createdAt(),
}, (t) => [
  index('login_history_user_idx').on(t.userId, t.createdAt),
  // "Has this account logged in from this device before?" is one probe of this index.
  index('login_history_device_idx').on(t.userId, t.device).where(sql`${t.success}`),
]);

/**
 * The second step of a login into an account with Google Authenticator bound (issue 18): the first
 * factor (e-mail or phone code, wallet, OpenID) was right, so instead of a session the caller got
 * a ticket, kept here only as its SHA-256. The ticket opens a session once, with a Google code or a
 * recovery code, within its short life; the first factor's method is kept for the session.
 */
export const loginSecondSteps = pgTable('login_second_steps', {
  ticketHash: varchar('ticket_hash', { length: 64 }).primaryKey(),
  userId: bigint('user_id', { mode: 'bigint' }).notNull().references(() => users.id),
  method: varchar('method', { length: 16 }).notNull(),
  expiresAt: timestamp('expires_at', { withTimezone: true, mode: 'date' }).notNull(),
  usedAt: timestamp('used_at', { withTimezone: true, mode: 'date' }),
  createdAt: createdAt(),
}, (t) => [index('login_second_steps_user_idx').on(t.userId, t.createdAt)]);

// ─── Notices, messages, help, news, chat and push (issue 21; server/domain/programs/content/*) ─────────
// One table of published content of four kinds, each written per language (English the fallback),
// scheduled and expiring; who read it; each user's internal messages; chat conversations with a
// sequence number per conversation; Web Push subscriptions and price alerts. Maintenance mode is
// the system setting "maintenance" (a JSON value).

/**
 * A piece of content an operator writes: 'notice' (the platform's notices, home scroller and
 * notice list), 'announcement' (to an audience, optionally a pop-up shown once), 'help' (help
 * centre, with a category) or 'article' (news, with a cover image). Visible while
 * publish_at ≤ now < expire_at (null: no expiry) and not withdrawn. `audience` is
 * { kind: 'all' } | { kind: 'vip', min } | { kind: 'kyc', min } | { kind: 'users', userIds: string[] }.
 */
export const contentItems = pgTable('content_items', {
  id: bigserial('id', { mode: 'bigint' }).primaryKey(),
  kind: varchar('kind', { length: 16 }).notNull(),
  audience: jsonb('audience').notNull().default(sql`'{"kind":"all"}'::jsonb`),
  popup: boolean('popup').notNull().default(false),
  /** Help centre category or news section (a short slug); null for notices and announcements. */
  category: varchar('category', { length: 32 }),
  coverImageId: varchar('cover_image_id', { length: 32 }),
  publishAt: timestamp('publish_at', { withTimezone: true, mode: 'date' }).notNull(),
  expireAt: timestamp('expire_at', { withTimezone: true, mode: 'date' }),
  withdrawnAt: timestamp('withdrawn_at', { withTimezone: true, mode: 'date' }),
  createdBy: bigint('created_by', { mode: 'bigint' }).notNull().references(() => operators.id),
  updatedAt: timestamp('updated_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  createdAt: createdAt(),
}, (t) => [
  index('content_items_kind_publish_idx').on(t.kind, t.publishAt, t.id),
  check('content_items_kind_known', sql`${t.kind} in ('notice', 'announcement', 'help', 'article')`),
]);

/** A content item's text in one language: the title, a plain summary and the sanitized HTML body. */
export const contentTranslations = pgTable('content_translations', {
  itemId: bigint('item_id', { mode: 'bigint' }).notNull().references(() => contentItems.id),
  lang: varchar('lang', { length: 8 }).notNull(),
  title: varchar('title', { length: 200 }).notNull(),
  summary: varchar('summary', { length: 500 }).notNull().default(''),
  /** Sanitized on the server with an allow-list before it is stored (never raw operator HTML). */
  bodyHtml: text('body_html').notNull(),
  /** Plain text of the body, for search. */
  bodyText: text('body_text').notNull(),
}, (t) => [primaryKey({ columns: [t.itemId, t.lang] })]);

/** Who read an announcement or notice, and when (a pop-up is shown until it is read). */
export const contentReads = pgTable('content_reads', {
  itemId: bigint('item_id', { mode: 'bigint' }).notNull().references(() => contentItems.id),
  userId: bigint('user_id', { mode: 'bigint' }).notNull().references(() => users.id),
  readAt: timestamp('read_at', { withTimezone: true, mode: 'date' }).notNull(),
}, (t) => [primaryKey({ columns: [t.itemId, t.userId] }), index('content_reads_user_idx').on(t.userId)]);

/** Images operators upload for content (covers and inline images), served publicly by id. */
export const contentImages = pgTable('content_images', {
  id: varchar('id', { length: 32 }).primaryKey(),
  operatorId: bigint('operator_id', { mode: 'bigint' }).notNull().references(() => operators.id),
  contentType: varchar('content_type', { length: 32 }).notNull(),
  storedName: varchar('stored_name', { length: 64 }).notNull(),
  sizeBytes: integer('size_bytes').notNull(),
  width: integer('width'),
  height: integer('height'),
  createdAt: createdAt(),
});

/**
 * An internal message to one user, written in the same transaction as the event it tells of.
 * `kind` names the event (deposit_credited, withdrawal_paid, withdrawal_rejected, kyc_approved,
 * kyc_rejected, position_take_profit, position_stop_loss, position_liquidated,
 * second_contract_settled, price_alert, notice, chat_reply...); `params` the values its text
 * shows (the app words it in the user's language); `route` the page it opens. `dedupe_key`
 * makes writing the same event's message twice harmless.
 */
export const userMessages = pgTable('user_messages', {
  id: bigserial('id', { mode: 'bigint' }).primaryKey(),
  userId: bigint('user_id', { mode: 'bigint' }).notNull().references(() => users.id),
  kind: varchar('kind', { length: 40 }).notNull(),
  /** The push category it belongs to (notices, trading, money, chat, security, price_alerts). */
  category: varchar('category', { length: 16 }).notNull(),
  params: jsonb('params').notNull().default(sql`'{}'::jsonb`),
  route: varchar('route', { length: 200 }),
  dedupeKey: varchar('dedupe_key', { length: 96 }),
  readAt: timestamp('read_at', { withTimezone: true, mode: 'date' }),
  createdAt: createdAt(),
}, (t) => [
  index('user_messages_user_idx').on(t.userId, t.id),
  index('user_messages_unread_idx').on(t.userId).where(sql`${t.readAt} is null`),
  uniqueIndex('user_messages_dedupe_key').on(t.userId, t.dedupeKey),
]);

/** A browser's Web Push subscription (RFC 8030/8291): where to send and the keys to encrypt with. */
export const pushSubscriptions = pgTable('push_subscriptions', {
  id: bigserial('id', { mode: 'bigint' }).primaryKey(),
  userId: bigint('user_id', { mode: 'bigint' }).notNull().references(() => users.id),
  endpoint: varchar('endpoint', { length: 1024 }).notNull(),
  p256dh: varchar('p256dh', { length: 128 }).notNull(),
  auth: varchar('auth', { length: 64 }).notNull(),
  /** Categories this browser wants: notices, trading, money, chat, security, price_alerts. */
  categories: jsonb('categories').notNull(),
  failures: integer('failures').notNull().default(0),
  lastSentAt: timestamp('last_sent_at', { withTimezone: true, mode: 'date' }),
  createdAt: createdAt(),
}, (t) => [
  uniqueIndex('push_subscriptions_endpoint_key').on(t.endpoint),
  index('push_subscriptions_user_idx').on(t.userId),
]);

/** A price alert: when `symbol` crosses `price` in `direction`, a push and an internal message. */
export const priceAlerts = pgTable('price_alerts', {
  id: bigserial('id', { mode: 'bigint' }).primaryKey(),
  userId: bigint('user_id', { mode: 'bigint' }).notNull().references(() => users.id),
  symbol: varchar('symbol', { length: 24 }).notNull(),
  direction: varchar('direction', { length: 5 }).notNull(),
  /** A decimal string in the symbol's quote precision. */
  price: varchar('price', { length: 40 }).notNull(),
  /** false: fires once and turns itself off; true: fires every time the price crosses again. */
  repeat: boolean('repeat').notNull().default(false),
  active: boolean('active').notNull().default(true),
  lastFiredAt: timestamp('last_fired_at', { withTimezone: true, mode: 'date' }),
  createdAt: createdAt(),
}, (t) => [
  index('price_alerts_active_idx').on(t.symbol).where(sql`${t.active}`),
  index('price_alerts_user_idx').on(t.userId, t.id),
  check('price_alerts_direction_known', sql`${t.direction} in ('above', 'below')`),
]);

/**
 * A user's support conversation: one open at a time; `last_seq` numbers its messages; each side's
 * read mark is the last sequence it has read; an operator may take it (assigned_operator_id).
 */
export const chatConversations = pgTable('chat_conversations', {
  id: bigserial('id', { mode: 'bigint' }).primaryKey(),
  userId: bigint('user_id', { mode: 'bigint' }).notNull().references(() => users.id),
  status: varchar('status', { length: 8 }).notNull().default('open'),
  assignedOperatorId: bigint('assigned_operator_id', { mode: 'bigint' }).references(() => operators.id),
  lastSeq: integer('last_seq').notNull().default(0),
  userReadSeq: integer('user_read_seq').notNull().default(0),
  operatorReadSeq: integer('operator_read_seq').notNull().default(0),
  lastMessageAt: timestamp('last_message_at', { withTimezone: true, mode: 'date' }).notNull(),
  closedAt: timestamp('closed_at', { withTimezone: true, mode: 'date' }),
  createdAt: createdAt(),
}, (t) => [
  uniqueIndex('chat_conversations_one_open').on(t.userId).where(sql`${t.status} = 'open'`),
  index('chat_conversations_queue_idx').on(t.status, t.lastMessageAt),
  check('chat_conversations_status_known', sql`${t.status} in ('open', 'closed')`),
]);

/** One chat message: text and/or an uploaded image; a user's client_message_id makes a resend harmless. */
export const chatMessages = pgTable('chat_messages', {
  conversationId: bigint('conversation_id', { mode: 'bigint' }).notNull().references(() => chatConversations.id),
  seq: integer('seq').notNull(),
  /** 'user', 'operator' or 'system' (assigned, transferred, closed). */
  sender: varchar('sender', { length: 8 }).notNull(),
  operatorId: bigint('operator_id', { mode: 'bigint' }).references(() => operators.id),
  clientMessageId: varchar('client_message_id', { length: 64 }),
  text: varchar('text', { length: 2000 }),
  uploadId: varchar('upload_id', { length: 32 }).references(() => uploads.id),
  createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull(),
}, (t) => [
  primaryKey({ columns: [t.conversationId, t.seq] }),
  uniqueIndex('chat_messages_client_id_key').on(t.conversationId, t.clientMessageId),
  check('chat_messages_sender_known', sql`${t.sender} in ('user', 'operator', 'system')`),
]);

/** Canned replies operators pick from, per language. */
export const chatCannedReplies = pgTable('chat_canned_replies', {
  id: bigserial('id', { mode: 'bigint' }).primaryKey(),
  lang: varchar('lang', { length: 8 }).notNull(),
  title: varchar('title', { length: 80 }).notNull(),
  text: varchar('text', { length: 2000 }).notNull(),
  createdAt: createdAt(),
});

// ─── Investment products, mining, bonds, loans and VIP levels (issue 22) ─────────────────────────

/**
 * VIP levels: a user is at the highest level whose threshold of total assets (in USDT atomic
 * units, USDT's scale) they reach. Level 0 is everyone. `credit_limit` raises the credit-loan limit.
 */
export const vipLevels = pgTable('vip_levels', {
  level: smallint('level').primaryKey(),
  name: varchar('name', { length: 32 }).notNull(),
  minAssets: atomic('min_assets').notNull(),
  creditLimit: atomic('credit_limit').notNull().default(sql`0`),
  updatedAt: timestamp('updated_at', { withTimezone: true, mode: 'date' }).notNull(),
}, (t) => [check('vip_levels_level_range', sql`${t.level} >= 0 and ${t.level} <= 20`)]);

/** Each user's level as last computed (daily and on large movements), and the highest ever reached. */
export const userLevels = pgTable('user_levels', {
  userId: bigint('user_id', { mode: 'bigint' }).primaryKey().references(() => users.id),
  level: smallint('level').notNull(),
  highestLevel: smallint('highest_level').notNull(),
  assets: atomic('assets').notNull(),
  checkedAt: timestamp('checked_at', { withTimezone: true, mode: 'date' }).notNull(),
});

/**
 * Since when a user has held each level (issue 38): one row per level from 1 up to the user's
 * current level, written when a check first finds the level reached and deleted when a check finds
 * it lost, so `since` is the start of an unbroken holding. A VIP bonus is paid once its level has
 * been held for the operator's holding period (rewards/vip.ts).
 */
export const userLevelHolds = pgTable('user_level_holds', {
  userId: bigint('user_id', { mode: 'bigint' }).notNull().references(() => users.id),
  level: smallint('level').notNull(),
  since: timestamp('since', { withTimezone: true, mode: 'date' }).notNull(),
}, (t) => [primaryKey({ columns: [t.userId, t.level] })]);

/**
 * A product a user buys: arbitrage and quant (a fixed daily rate on principal), mining (a machine
 * rented for a term, output in the mined asset by the published formula) and bond (a raise with
 * a target and deadline, a coupon paid at maturity). Returns are paid from the product's reserve:
 * `reserve` is what operators funded minus what was paid out; `owed` the returns promised and not
 * yet paid; `principal` the principal held in users' product_holdings for it. Coverage is
 * (reserve + principal) / (principal + owed) and a purchase may not take it under 100 %.
 */
export const products = pgTable('products', {
  id: bigserial('id', { mode: 'bigint' }).primaryKey(),
  type: varchar('type', { length: 10 }).notNull(),
  name: varchar('name', { length: 80 }).notNull(),
  /** Names per language code ({"ko": "..."}); `name` is the English one and the fallback. */
  names: jsonb('names').$type<Record<string, string>>().notNull().default({}),
  /** What a buyer pays in (principal or machine price). */
  asset: varchar('asset', { length: 12 }).notNull().references(() => ledgerAssets.code),
  /** What returns are paid in (the mined asset for mining; the purchase asset otherwise). */
  payoutAsset: varchar('payout_asset', { length: 12 }).notNull().references(() => ledgerAssets.code),
  status: varchar('status', { length: 8 }).notNull().default('open'),
  days: integer('days').notNull(),
  /** Daily rate in parts per million of principal (arbitrage, quant, bond coupon); 0 for mining. */
  dailyRatePpm: integer('daily_rate_ppm').notNull().default(0),
  /** 'full' (the purchase day earns a whole day), 'next_day' (accrual starts the next UTC day). */
  firstDayRule: varchar('first_day_rule', { length: 10 }).notNull().default('next_day'),
  minLevel: smallint('min_level').notNull().default(0),
  minAmount: atomic('min_amount').notNull(),
  maxAmount: atomic('max_amount').notNull(),
  /** Most one user may hold in it at once (0: no cap beyond max_amount per order). */
  perUserMax: atomic('per_user_max').notNull().default(sql`0`),
  /** Most the product sells in all (bond: its raise target is `target`). */
  totalCap: atomic('total_cap').notNull().default(sql`0`),
  earlyRedeem: boolean('early_redeem').notNull().default(false),
  /** Cost of early redemption in ppm of principal. */
  earlyRedeemFeePpm: integer('early_redeem_fee_ppm').notNull().default(0),
  /** Bond: the raise target and its deadline; not met by then, everyone is refunded. */
  target: atomic('target'),
  opensAt: timestamp('opens_at', { withTimezone: true, mode: 'date' }),
  closesAt: timestamp('closes_at', { withTimezone: true, mode: 'date' }),
  /** Mining: machine specification (manufacturer, hashrateThs, powerW, size, weightKg, temperature, humidity, network). */
  machine: jsonb('machine').$type<Record<string, string | number>>(),
  /** Mining: price of one machine for the term, in `asset`. */
  unitPrice: atomic('unit_price'),
  sold: atomic('sold').notNull().default(sql`0`),
  reserve: atomic('reserve').notNull().default(sql`0`),
  owed: atomic('owed').notNull().default(sql`0`),
  principal: atomic('principal').notNull().default(sql`0`),
  paid: atomic('paid').notNull().default(sql`0`),
  createdBy: bigint('created_by', { mode: 'bigint' }).references(() => operators.id),
  createdAt: createdAt(),
  updatedAt: timestamp('updated_at', { withTimezone: true, mode: 'date' }).notNull(),
}, (t) => [
  check('products_type_known', sql`${t.type} in ('arbitrage', 'quant', 'mining', 'bond')`),
  check('products_status_known', sql`${t.status} in ('draft', 'open', 'closed', 'raised', 'failed')`),
  check('products_first_day_known', sql`${t.firstDayRule} in ('full', 'next_day')`),
  check('products_figures_non_negative', sql`${t.reserve} >= 0 and ${t.owed} >= 0 and ${t.principal} >= 0 and ${t.sold} >= 0`),
  index('products_type_idx').on(t.type, t.status),
]);

/**
 * A user's purchase. Status per spec §4: not_started, running, ended, frozen, cancelled. `owed`
 * is what is still to be paid of the returns promised at purchase; `accrued` what was paid.
 */
export const productOrders = pgTable('product_orders', {
  id: bigserial('id', { mode: 'bigint' }).primaryKey(),
  userId: bigint('user_id', { mode: 'bigint' }).notNull().references(() => users.id),
  productId: bigint('product_id', { mode: 'bigint' }).notNull().references(() => products.id),
  clientOrderId: varchar('client_order_id', { length: 64 }).notNull(),
  amount: atomic('amount').notNull(),
  /** Mining: machines bought. */
  quantity: integer('quantity').notNull().default(1),
  status: varchar('status', { length: 12 }).notNull(),
  dailyRatePpm: integer('daily_rate_ppm').notNull(),
  days: integer('days').notNull(),
  startsAt: timestamp('starts_at', { withTimezone: true, mode: 'date' }).notNull(),
  endsAt: timestamp('ends_at', { withTimezone: true, mode: 'date' }).notNull(),
  accrued: atomic('accrued').notNull().default(sql`0`),
  owed: atomic('owed').notNull().default(sql`0`),
  /** The last UTC day (YYYY-MM-DD) whose return this order was paid. */
  lastAccruedDay: varchar('last_accrued_day', { length: 10 }),
  frozenReason: varchar('frozen_reason', { length: 300 }),
  endedAt: timestamp('ended_at', { withTimezone: true, mode: 'date' }),
  createdAt: createdAt(),
}, (t) => [
  uniqueIndex('product_orders_client_id_key').on(t.userId, t.clientOrderId),
  index('product_orders_user_idx').on(t.userId, t.id),
  index('product_orders_product_status_idx').on(t.productId, t.status),
  check('product_orders_status_known', sql`${t.status} in ('not_started', 'running', 'ended', 'frozen', 'cancelled')`),
]);

/** The receipt of one day's return of one order, with the inputs it was computed from. */
export const productAccruals = pgTable('product_accruals', {
  orderId: bigint('order_id', { mode: 'bigint' }).notNull().references(() => productOrders.id),
  day: varchar('day', { length: 10 }).notNull(),
  amount: atomic('amount').notNull(),
  /** Principal, rate, days; for mining hashrate, reward per TH/s, power, electricity price and the tick used. */
  inputs: jsonb('inputs').$type<Record<string, string | number>>().notNull(),
  /** The ledger transfer that paid it (a payout job's transfer id). */
  transferId: varchar('transfer_id', { length: 64 }).notNull(),
  createdAt: createdAt(),
}, (t) => [primaryKey({ columns: [t.orderId, t.day] })]);

/** An operator's funding of a product reserve (house → product reserve); two operators above the threshold. */
export const productReserveFundings = pgTable('product_reserve_fundings', {
  id: bigserial('id', { mode: 'bigint' }).primaryKey(),
  productId: bigint('product_id', { mode: 'bigint' }).notNull().references(() => products.id),
  amount: atomic('amount').notNull(),
  status: varchar('status', { length: 8 }).notNull(),
  approvalsRequired: smallint('approvals_required').notNull(),
  requestedBy: bigint('requested_by', { mode: 'bigint' }).notNull().references(() => operators.id),
  transferId: varchar('transfer_id', { length: 64 }),
  createdAt: createdAt(),
  completedAt: timestamp('completed_at', { withTimezone: true, mode: 'date' }),
}, (t) => [check('product_reserve_fundings_status_known', sql`${t.status} in ('pending', 'done', 'rejected')`)]);

export const productReserveApprovals = pgTable('product_reserve_approvals', {
  fundingId: bigint('funding_id', { mode: 'bigint' }).notNull().references(() => productReserveFundings.id),
  operatorId: bigint('operator_id', { mode: 'bigint' }).notNull().references(() => operators.id),
  createdAt: createdAt(),
}, (t) => [primaryKey({ columns: [t.fundingId, t.operatorId] })]);

/**
 * The network's mining reward an operator publishes: mined asset (atomic) per TH/s per day, the
 * electricity price (USDT atomic per kWh), its date and source. The newest on or before a day applies.
 */
export const miningRewards = pgTable('mining_rewards', {
  id: bigserial('id', { mode: 'bigint' }).primaryKey(),
  asset: varchar('asset', { length: 12 }).notNull().references(() => ledgerAssets.code),
  day: varchar('day', { length: 10 }).notNull(),
  rewardPerThsDay: atomic('reward_per_ths_day').notNull(),
  electricityPerKwh: atomic('electricity_per_kwh').notNull(),
  source: varchar('source', { length: 200 }).notNull(),
  publishedBy: bigint('published_by', { mode: 'bigint' }).references(() => operators.id),
  createdAt: createdAt(),
}, (t) => [uniqueIndex('mining_rewards_asset_day_key').on(t.asset, t.day)]);

/**
 * A loan offer (`/prod/appLoanSet/list`): credit (limit: the verification level's loan_limit of
 * kyc_level_settings plus the VIP level's credit_limit) or pledge (collateral at initial, margin-call and liquidation LTVs in basis points).
 */
export const loanSettings = pgTable('loan_settings', {
  id: bigserial('id', { mode: 'bigint' }).primaryKey(),
  type: varchar('type', { length: 6 }).notNull(),
  asset: varchar('asset', { length: 12 }).notNull().references(() => ledgerAssets.code),
  collateralAsset: varchar('collateral_asset', { length: 12 }).references(() => ledgerAssets.code),
  dailyRatePpm: integer('daily_rate_ppm').notNull(),
  penaltyRatePpm: integer('penalty_rate_ppm').notNull(),
  minDays: integer('min_days').notNull(),
  maxDays: integer('max_days').notNull(),
  minAmount: atomic('min_amount').notNull(),
  maxAmount: atomic('max_amount').notNull(),
  initialLtvBp: integer('initial_ltv_bp'),
  marginCallLtvBp: integer('margin_call_ltv_bp'),
  liquidationLtvBp: integer('liquidation_ltv_bp'),
  liquidationFeeBp: integer('liquidation_fee_bp'),
  enabled: boolean('enabled').notNull().default(true),
  updatedAt: timestamp('updated_at', { withTimezone: true, mode: 'date' }).notNull(),
}, (t) => [
  check('loan_settings_type_known', sql`${t.type} in ('credit', 'pledge')`),
  check('loan_settings_pledge_ltvs', sql`${t.type} = 'credit' or (${t.collateralAsset} is not null and ${t.initialLtvBp} < ${t.marginCallLtvBp} and ${t.marginCallLtvBp} < ${t.liquidationLtvBp} and ${t.liquidationLtvBp} < 10000)`),
]);

/**
 * A loan. Status: pending (under review), rejected (may apply again), active (funds paid), repaid,
 * liquidated (pledge). The agreement's terms are kept as signed, with their SHA-256 and the
 * signature image.
 */
export const loans = pgTable('loans', {
  id: bigserial('id', { mode: 'bigint' }).primaryKey(),
  userId: bigint('user_id', { mode: 'bigint' }).notNull().references(() => users.id),
  settingId: bigint('setting_id', { mode: 'bigint' }).notNull().references(() => loanSettings.id),
  type: varchar('type', { length: 6 }).notNull(),
  clientOrderId: varchar('client_order_id', { length: 64 }).notNull(),
  asset: varchar('asset', { length: 12 }).notNull().references(() => ledgerAssets.code),
  amount: atomic('amount').notNull(),
  days: integer('days').notNull(),
  dailyRatePpm: integer('daily_rate_ppm').notNull(),
  penaltyRatePpm: integer('penalty_rate_ppm').notNull(),
  status: varchar('status', { length: 10 }).notNull(),
  collateralAsset: varchar('collateral_asset', { length: 12 }).references(() => ledgerAssets.code),
  collateral: atomic('collateral'),
  /** Pledge: the margin-call and liquidation LTVs and the fee as signed (an offer edited later does not move them). */
  marginCallLtvBp: integer('margin_call_ltv_bp'),
  liquidationLtvBp: integer('liquidation_ltv_bp'),
  liquidationFeeBp: integer('liquidation_fee_bp'),
  signatureUploadId: varchar('signature_upload_id', { length: 32 }).references(() => uploads.id),
  terms: text('terms').notNull(),
  termsHash: varchar('terms_hash', { length: 64 }).notNull(),
  signedAt: timestamp('signed_at', { withTimezone: true, mode: 'date' }).notNull(),
  rejectReason: varchar('reject_reason', { length: 300 }),
  reviewedBy: bigint('reviewed_by', { mode: 'bigint' }).references(() => operators.id),
  reviewedAt: timestamp('reviewed_at', { withTimezone: true, mode: 'date' }),
  startsAt: timestamp('starts_at', { withTimezone: true, mode: 'date' }),
  dueAt: timestamp('due_at', { withTimezone: true, mode: 'date' }),
  interest: atomic('interest').notNull().default(sql`0`),
  repaid: atomic('repaid').notNull().default(sql`0`),
  lastAccruedDay: varchar('last_accrued_day', { length: 10 }),
  marginCalledAt: timestamp('margin_called_at', { withTimezone: true, mode: 'date' }),
  /** Pledge liquidation: tick time and price, collateral sold, fee, loan repaid and what was returned. */
  liquidation: jsonb('liquidation').$type<Record<string, string | number>>(),
  closedAt: timestamp('closed_at', { withTimezone: true, mode: 'date' }),
  createdAt: createdAt(),
}, (t) => [
  uniqueIndex('loans_client_id_key').on(t.userId, t.clientOrderId),
  index('loans_user_idx').on(t.userId, t.id),
  index('loans_status_idx').on(t.status, t.id),
  check('loans_type_known', sql`${t.type} in ('credit', 'pledge')`),
  check('loans_status_known', sql`${t.status} in ('pending', 'rejected', 'active', 'repaid', 'liquidated')`),
]);

/** A scheduled job's run for one UTC day: running it again the same day answers this row. */
export const jobRuns = pgTable('job_runs', {
  name: varchar('name', { length: 32 }).notNull(),
  day: varchar('day', { length: 10 }).notNull(),
  operatorId: bigint('operator_id', { mode: 'bigint' }).references(() => operators.id),
  state: varchar('state', { length: 8 }).notNull(),
  result: jsonb('result').$type<Record<string, string | number>>(),
  startedAt: timestamp('started_at', { withTimezone: true, mode: 'date' }).notNull(),
  finishedAt: timestamp('finished_at', { withTimezone: true, mode: 'date' }),
}, (t) => [
  primaryKey({ columns: [t.name, t.day] }),
  check('job_runs_state_known', sql`${t.state} in ('running', 'done', 'failed')`),
]);

// ─── Issue 23: competitions, IEO, welfare tasks, VIP rewards, red envelopes, team invitation ────

/**
 * A trading competition. Entry funds move from spot into the user's `competition` account (shown as
 * "frozen by competition"); contracts opened with the competition's id trade on it during the
 * window. Status: scheduled (spec 0, to be started), running (1), ended (-2: the ranking is frozen),
 * settled (prizes paid), cancelled. Prizes are paid by rank from `prizes` (a system account the
 * operators fund) through a payout job; `prizeTable` is [{fromRank, toRank, amount}] in atomic
 * units of `prizeAsset`.
 */
export const competitions = pgTable('competitions', {
  id: bigserial('id', { mode: 'bigint' }).primaryKey(),
  name: varchar('name', { length: 80 }).notNull(),
  names: jsonb('names').$type<Record<string, string>>().notNull().default({}),
  /** What entry funds are paid in (USDT). */
  asset: varchar('asset', { length: 12 }).notNull().references(() => ledgerAssets.code),
  entryAmount: atomic('entry_amount').notNull(),
  /** The contract symbols that may be traded in it. */
  symbols: jsonb('symbols').$type<string[]>().notNull(),
  startsAt: timestamp('starts_at', { withTimezone: true, mode: 'date' }).notNull(),
  endsAt: timestamp('ends_at', { withTimezone: true, mode: 'date' }).notNull(),
  maxParticipants: integer('max_participants').notNull().default(0),
  prizeAsset: varchar('prize_asset', { length: 12 }).notNull().references(() => ledgerAssets.code),
  prizeTable: jsonb('prize_table').$type<{ fromRank: number; toRank: number; amount: string }[]>().notNull(),
  status: varchar('status', { length: 10 }).notNull().default('scheduled'),
  /** The payout job that paid the prizes. */
  payoutJobId: varchar('payout_job_id', { length: 64 }),
  settledAt: timestamp('settled_at', { withTimezone: true, mode: 'date' }),
  createdBy: bigint('created_by', { mode: 'bigint' }).references(() => operators.id),
  createdAt: createdAt(),
  updatedAt: timestamp('updated_at', { withTimezone: true, mode: 'date' }).notNull(),
}, (t) => [
  check('competitions_status_known', sql`${t.status} in ('scheduled', 'running', 'ended', 'settled', 'cancelled')`),
  check('competitions_window', sql`${t.endsAt} > ${t.startsAt} and ${t.entryAmount} > 0`),
  index('competitions_status_idx').on(t.status, t.startsAt),
]);

/**
 * A user's entry. Status: joined, exited (spec -3: funds and result back, no rank), ended (the
 * competition ended: funds back, ranked). `finalEquity` and `returnPpm` are frozen at the end (or
 * at exit); rank and reward are set when the ranking freezes.
 */
export const competitionEntries = pgTable('competition_entries', {
  id: bigserial('id', { mode: 'bigint' }).primaryKey(),
  competitionId: bigint('competition_id', { mode: 'bigint' }).notNull().references(() => competitions.id),
  userId: bigint('user_id', { mode: 'bigint' }).notNull().references(() => users.id),
  clientOrderId: varchar('client_order_id', { length: 64 }).notNull(),
  entryAmount: atomic('entry_amount').notNull(),
  status: varchar('status', { length: 8 }).notNull().default('joined'),
  finalEquity: atomic('final_equity'),
  /** Rate of return in parts per million ((final equity - entry) / entry), signed. */
  returnPpm: bigint('return_ppm', { mode: 'bigint' }),
  rank: integer('rank'),
  reward: atomic('reward').notNull().default(sql`0`),
  joinedAt: timestamp('joined_at', { withTimezone: true, mode: 'date' }).notNull(),
  exitedAt: timestamp('exited_at', { withTimezone: true, mode: 'date' }),
  endedAt: timestamp('ended_at', { withTimezone: true, mode: 'date' }),
}, (t) => [
  uniqueIndex('competition_entries_user_key').on(t.competitionId, t.userId),
  uniqueIndex('competition_entries_client_key').on(t.userId, t.clientOrderId),
  index('competition_entries_rank_idx').on(t.competitionId, t.rank),
  check('competition_entries_status_known', sql`${t.status} in ('joined', 'exited', 'ended')`),
]);

/**
 * An IEO project. The lottery is provable: `seedHash` (SHA-256 of the secret seed, hex) is
 * published when the project is created, before the window opens; at close the list of
 * applications (ids and quantities) is published with its SHA-256 (`listHash`); then the seed is
 * revealed and the winners are a deterministic function of the seed and the list (docs/fairness.md).
 * Status: upcoming, issuing (window open), closed (list published), drawn (seed revealed, winners
 * known, paying), listed (tokens credited), cancelled. `token` becomes a ledger asset at creation.
 */
export const ieoProjects = pgTable('ieo_projects', {
  id: bigserial('id', { mode: 'bigint' }).primaryKey(),
  name: varchar('name', { length: 80 }).notNull(),
  names: jsonb('names').$type<Record<string, string>>().notNull().default({}),
  token: varchar('token', { length: 12 }).notNull().references(() => ledgerAssets.code),
  /** What winners pay in (USDT), and the price of one token in its atomic units. */
  payAsset: varchar('pay_asset', { length: 12 }).notNull().references(() => ledgerAssets.code),
  price: atomic('price').notNull(),
  /** Tokens (atomic) in one lot; supply in lots; most lots one user may apply for. */
  lotSize: atomic('lot_size').notNull(),
  supplyLots: bigint('supply_lots', { mode: 'bigint' }).notNull(),
  perUserMaxLots: bigint('per_user_max_lots', { mode: 'bigint' }).notNull(),
  opensAt: timestamp('opens_at', { withTimezone: true, mode: 'date' }).notNull(),
  closesAt: timestamp('closes_at', { withTimezone: true, mode: 'date' }).notNull(),
  /** Winners pay by then, or their allocation lapses. */
  payDeadline: timestamp('pay_deadline', { withTimezone: true, mode: 'date' }).notNull(),
  listsAt: timestamp('lists_at', { withTimezone: true, mode: 'date' }).notNull(),
  status: varchar('status', { length: 10 }).notNull().default('upcoming'),
  seedHash: varchar('seed_hash', { length: 64 }).notNull(),
  /** The secret seed (hex), kept by the server and published only at reveal. */
  seed: varchar('seed', { length: 64 }).notNull(),
  seedRevealedAt: timestamp('seed_revealed_at', { withTimezone: true, mode: 'date' }),
  /** The published application list (canonical text, docs/fairness.md) and its SHA-256. */
  list: text('list'),
  listHash: varchar('list_hash', { length: 64 }),
  closedAt: timestamp('closed_at', { withTimezone: true, mode: 'date' }),
  listedAt: timestamp('listed_at', { withTimezone: true, mode: 'date' }),
  createdBy: bigint('created_by', { mode: 'bigint' }).references(() => operators.id),
  createdAt: createdAt(),
  updatedAt: timestamp('updated_at', { withTimezone: true, mode: 'date' }).notNull(),
}, (t) => [
  check('ieo_projects_status_known', sql`${t.status} in ('upcoming', 'issuing', 'closed', 'drawn', 'listed', 'cancelled')`),
  check('ieo_projects_figures', sql`${t.price} > 0 and ${t.lotSize} > 0 and ${t.supplyLots} > 0 and ${t.perUserMaxLots} > 0`),
  check('ieo_projects_dates', sql`${t.closesAt} > ${t.opensAt} and ${t.payDeadline} >= ${t.closesAt} and ${t.listsAt} >= ${t.payDeadline}`),
]);

/**
 * One application. Status per spec §4: applied, won (lots allocated), lost, paid, lapsed (won and
 * not paid by the deadline), completed (tokens credited at listing).
 */
export const ieoApplications = pgTable('ieo_applications', {
  id: bigserial('id', { mode: 'bigint' }).primaryKey(),
  projectId: bigint('project_id', { mode: 'bigint' }).notNull().references(() => ieoProjects.id),
  userId: bigint('user_id', { mode: 'bigint' }).notNull().references(() => users.id),
  lots: bigint('lots', { mode: 'bigint' }).notNull(),
  wonLots: bigint('won_lots', { mode: 'bigint' }).notNull().default(sql`0`),
  /** What the won lots cost (pay asset, atomic), and the transfer that paid it. */
  amount: atomic('amount').notNull().default(sql`0`),
  status: varchar('status', { length: 10 }).notNull().default('applied'),
  paymentTransferId: varchar('payment_transfer_id', { length: 64 }),
  /**
   * Issue 38: the verified person behind the application (kyc.ts verifiedPersonKey, a hash of the
   * approved basic verification's document), so one person applies once whatever the account; the
   * pending transfer that holds the cost of every lot applied for (spot → ieo_proceeds), and what it
   * still holds (0 once the draw posted the won lots' cost and released the rest). Null key and hold
   * on applications made before holds existed: their winners pay by the deadline as before.
   */
  personKey: varchar('person_key', { length: 64 }),
  holdTransferId: varchar('hold_transfer_id', { length: 64 }),
  heldAmount: atomic('held_amount').notNull().default(sql`0`),
  createdAt: createdAt(),
  paidAt: timestamp('paid_at', { withTimezone: true, mode: 'date' }),
}, (t) => [
  uniqueIndex('ieo_applications_user_key').on(t.projectId, t.userId),
  uniqueIndex('ieo_applications_person_key').on(t.projectId, t.personKey).where(sql`${t.personKey} is not null`),
  index('ieo_applications_project_idx').on(t.projectId, t.id),
  // The draw's settlement walks the holds still open, a batch at a time.
  index('ieo_applications_held_idx').on(t.projectId, t.id).where(sql`${t.heldAmount} > 0`),
  check('ieo_applications_status_known', sql`${t.status} in ('applied', 'won', 'lost', 'paid', 'lapsed', 'completed')`),
  check('ieo_applications_lots', sql`${t.lots} > 0 and ${t.wonLots} >= 0 and ${t.wonLots} <= ${t.lots}`),
  check('ieo_applications_held', sql`${t.heldAmount} >= 0`),
]);

/**
 * Welfare tasks: `kind` names the condition (first_deposit, kyc_basic, first_trade, first_product,
 * invite_deposit with `target` friends, checkin_streak with `target` days); the reward is paid from
 * the `rewards` system account, once per user.
 */
export const welfareTasks = pgTable('welfare_tasks', {
  id: bigserial('id', { mode: 'bigint' }).primaryKey(),
  kind: varchar('kind', { length: 20 }).notNull(),
  name: varchar('name', { length: 80 }).notNull(),
  names: jsonb('names').$type<Record<string, string>>().notNull().default({}),
  target: integer('target').notNull().default(1),
  rewardAsset: varchar('reward_asset', { length: 12 }).notNull().references(() => ledgerAssets.code),
  rewardAmount: atomic('reward_amount').notNull(),
  enabled: boolean('enabled').notNull().default(true),
  sort: integer('sort').notNull().default(0),
  createdAt: createdAt(),
  updatedAt: timestamp('updated_at', { withTimezone: true, mode: 'date' }).notNull(),
}, (t) => [
  check('welfare_tasks_kind_known', sql`${t.kind} in ('first_deposit', 'kyc_basic', 'first_trade', 'first_product', 'invite_deposit', 'checkin_streak')`),
  check('welfare_tasks_reward_positive', sql`${t.rewardAmount} > 0 and ${t.target} >= 1`),
]);

export const welfareClaims = pgTable('welfare_claims', {
  taskId: bigint('task_id', { mode: 'bigint' }).notNull().references(() => welfareTasks.id),
  userId: bigint('user_id', { mode: 'bigint' }).notNull().references(() => users.id),
  amount: atomic('amount').notNull(),
  transferId: varchar('transfer_id', { length: 64 }).notNull(),
  createdAt: createdAt(),
}, (t) => [primaryKey({ columns: [t.taskId, t.userId] })]);

/** Daily check-ins (one per user per UTC day) for the check-in streak task. */
export const welfareCheckins = pgTable('welfare_checkins', {
  userId: bigint('user_id', { mode: 'bigint' }).notNull().references(() => users.id),
  day: varchar('day', { length: 10 }).notNull(),
  createdAt: createdAt(),
}, (t) => [primaryKey({ columns: [t.userId, t.day] })]);

/** VIP rewards per level: the one-time bonus on first reaching it and the weekly red envelope (USDT atomic). */
export const vipRewards = pgTable('vip_rewards', {
  level: smallint('level').primaryKey().references(() => vipLevels.level),
  asset: varchar('asset', { length: 12 }).notNull().references(() => ledgerAssets.code),
  bonus: atomic('bonus').notNull().default(sql`0`),
  weeklyEnvelope: atomic('weekly_envelope').notNull().default(sql`0`),
  updatedAt: timestamp('updated_at', { withTimezone: true, mode: 'date' }).notNull(),
});

/**
 * A level's one-time bonus paid to a user: one row per (user, level), ever, and (issue 38) one per
 * (level, verified person): `person_key` is the person behind the account's approved basic
 * verification (identity/kyc.ts personKeyOf), so a second account of the same person gets nothing.
 * Null on grants paid before verification was required.
 */
export const vipBonusGrants = pgTable('vip_bonus_grants', {
  userId: bigint('user_id', { mode: 'bigint' }).notNull().references(() => users.id),
  level: smallint('level').notNull(),
  asset: varchar('asset', { length: 12 }).notNull(),
  amount: atomic('amount').notNull(),
  transferId: varchar('transfer_id', { length: 64 }).notNull(),
  personKey: varchar('person_key', { length: 64 }),
  createdAt: createdAt(),
}, (t) => [
  primaryKey({ columns: [t.userId, t.level] }),
  uniqueIndex('vip_bonus_grants_person_key').on(t.level, t.personKey).where(sql`${t.personKey} is not null`),
]);

/**
 * A weekly red envelope: issued every Monday (`week` is that Monday, YYYY-MM-DD) by level, opened
 * by its owner within seven days (the amount is credited from `rewards` then), else expired.
 */
export const redEnvelopes = pgTable('red_envelopes', {
  id: bigserial('id', { mode: 'bigint' }).primaryKey(),
  userId: bigint('user_id', { mode: 'bigint' }).notNull().references(() => users.id),
  week: varchar('week', { length: 10 }).notNull(),
  level: smallint('level').notNull(),
  asset: varchar('asset', { length: 12 }).notNull(),
  amount: atomic('amount').notNull(),
  status: varchar('status', { length: 8 }).notNull().default('unopened'),
  expiresAt: timestamp('expires_at', { withTimezone: true, mode: 'date' }).notNull(),
  openedAt: timestamp('opened_at', { withTimezone: true, mode: 'date' }),
  transferId: varchar('transfer_id', { length: 64 }),
  createdAt: createdAt(),
}, (t) => [
  uniqueIndex('red_envelopes_user_week_key').on(t.userId, t.week),
  index('red_envelopes_user_idx').on(t.userId, t.id),
  check('red_envelopes_status_known', sql`${t.status} in ('unopened', 'opened', 'expired')`),
]);

/** The share of the trading fees a team paid that goes to the member `level` levels above (1 to 3), in ppm. */
export const teamCommissionRates = pgTable('team_commission_rates', {
  level: smallint('level').primaryKey(),
  ratePpm: integer('rate_ppm').notNull(),
  updatedAt: timestamp('updated_at', { withTimezone: true, mode: 'date' }).notNull(),
}, (t) => [check('team_commission_rates_range', sql`${t.level} between 1 and 3 and ${t.ratePpm} between 0 and 500000`)]);

/** One day's team income statement line: what `fromUserId` (a level-`level` member) paid in fees and the share credited. */
export const teamCommissions = pgTable('team_commissions', {
  day: varchar('day', { length: 10 }).notNull(),
  userId: bigint('user_id', { mode: 'bigint' }).notNull().references(() => users.id),
  fromUserId: bigint('from_user_id', { mode: 'bigint' }).notNull().references(() => users.id),
  level: smallint('level').notNull(),
  asset: varchar('asset', { length: 12 }).notNull(),
  fees: atomic('fees').notNull(),
  ratePpm: integer('rate_ppm').notNull(),
  amount: atomic('amount').notNull(),
  transferId: varchar('transfer_id', { length: 64 }),
  createdAt: createdAt(),
}, (t) => [
  primaryKey({ columns: [t.day, t.userId, t.fromUserId, t.asset] }),
  index('team_commissions_user_idx').on(t.userId, t.day),
]);

/** Short links to the invitation (and other app paths): `/set/appShortLink/use` resolves one and counts the visit. */
export const shortLinks = pgTable('short_links', {
  code: varchar('code', { length: 16 }).primaryKey(),
  userId: bigint('user_id', { mode: 'bigint' }).references(() => users.id),
  target: varchar('target', { length: 300 }).notNull(),
  visits: integer('visits').notNull().default(0),
  createdAt: createdAt(),
  lastVisitAt: timestamp('last_visit_at', { withTimezone: true, mode: 'date' }),
}, (t) => [index('short_links_user_idx').on(t.userId)]);

/**
 * An operator's funding of a reward pool (house → `rewards` or `prizes`, optionally for one
 * competition); two operators above the threshold, as for product reserves.
 */
export const rewardFundings = pgTable('reward_fundings', {
  id: bigserial('id', { mode: 'bigint' }).primaryKey(),
  pool: varchar('pool', { length: 8 }).notNull(),
  asset: varchar('asset', { length: 12 }).notNull().references(() => ledgerAssets.code),
  amount: atomic('amount').notNull(),
  competitionId: bigint('competition_id', { mode: 'bigint' }).references(() => competitions.id),
  status: varchar('status', { length: 8 }).notNull(),
  approvalsRequired: smallint('approvals_required').notNull(),
  requestedBy: bigint('requested_by', { mode: 'bigint' }).notNull().references(() => operators.id),
  transferId: varchar('transfer_id', { length: 64 }),
  createdAt: createdAt(),
  completedAt: timestamp('completed_at', { withTimezone: true, mode: 'date' }),
}, (t) => [
  check('reward_fundings_pool_known', sql`${t.pool} in ('rewards', 'prizes')`),
  check('reward_fundings_status_known', sql`${t.status} in ('pending', 'done', 'rejected')`),
]);

export const rewardFundingApprovals = pgTable('reward_funding_approvals', {
  fundingId: bigint('funding_id', { mode: 'bigint' }).notNull().references(() => rewardFundings.id),
  operatorId: bigint('operator_id', { mode: 'bigint' }).notNull().references(() => operators.id),
  createdAt: createdAt(),
}, (t) => [primaryKey({ columns: [t.fundingId, t.operatorId] })]);
