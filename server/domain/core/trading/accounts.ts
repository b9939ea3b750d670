// The ledger accounts a trade moves (issue 10). Real trades use the user's spot USDT; demo trades
// the demo ledger's "demo" account (virtual funds, ledger 2), so the two can never mix: the ledger
// refuses a transfer between ledgers. Margins and stakes are held in the user's position_margin
// account of the same ledger; the house (the counterparty) and fees are system accounts sharded
// by a key of the caller's (the order), so concurrent trades do not queue on one row.
import { marginAsset } from '../../../../src/api/contract/trading.ts';
import type { Executor } from '../../../db/client.ts';
import { ledgers, openAccounts, systemShard, type LedgerName } from '../../kernel/ledger/accounts.ts';

export const ledgerOf = (demo: boolean | undefined): LedgerName => (demo ? 'demo' : 'real');
export const isDemoLedger = (ledger: number) => ledger === ledgers.demo;

export interface TradingAccounts {
  /** What the user trades from and is paid into: spot (real) or demo (virtual). */
  funds: bigint;
  /** Margin of positions and stakes of second contracts. */
  held: bigint;
  house: bigint;
  fees: bigint;
}

/**
 * The user's accounts in `asset` and the house and fee shards for `shardKey`, opened on first use.
 * With `competition` (issue 23: a contract opened inside a trading competition) the funds are the
 * user's `competition` account of the real ledger instead of spot: margin comes from it and the
 * result returns to it.
 */
export async function tradingAccounts(db: Executor, userId: bigint, ledger: LedgerName, shardKey: string,
  asset: string = marginAsset, options: { competition?: boolean } = {}): Promise<TradingAccounts> {
  const shard = systemShard(shardKey);
  const fundsKind = options.competition && ledger === 'real' ? 'competition' : ledger === 'demo' ? 'demo' : 'spot';
  const [funds, held, house, fees] = await openAccounts(db, [
    { ledger, asset, kind: fundsKind, ownerUserId: userId },
    { ledger, asset, kind: 'position_margin', ownerUserId: userId },
    { ledger, asset, kind: 'house', shard },
    { ledger, asset, kind: 'fees', shard },
  ]);
  return { funds, held, house, fees };
}
