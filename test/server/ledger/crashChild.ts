// The process crash.test.ts kills: it opens the database it is given (DATABASE_URL, or the PGlite
// directory PGLITE_DIR), funds a few users, prints "ready", then posts a burst of transfers from
// four loops at once (deposits, transfers between users, pending withdrawals and their posts and
// voids) and prints the ids of every batch the database acknowledged, one JSON line per batch,
// until it is killed. Writes to a pipe are synchronous on Linux, so a printed line is never lost.
import { randomBytes } from 'node:crypto';
import { openDatabase } from '../../../server/db/client.ts';
import { seed } from '../../../server/seed.ts';
import { users } from '../../../server/db/schema.ts';
import { openAccounts, systemShard } from '../../../server/domain/kernel/ledger/accounts.ts';
import type { TransferRequest } from '../../../server/domain/kernel/ledger/rules.ts';
import { postTransfers } from '../../../server/domain/kernel/ledger/transfers.ts';

const database = await openDatabase(process.env.DATABASE_URL
  ? { databaseUrl: process.env.DATABASE_URL } : { pgliteDir: process.env.PGLITE_DIR! });
const { db } = database;
await seed(db, { demo: false });
const created = await db.insert(users).values(Array.from({ length: 5 }, () => ({
  email: `crash-${randomBytes(6).toString('hex')}@example.com`, passwordHash: 'crash', inviteCode: randomBytes(5).toString('hex').toUpperCase(),
}))).returning({ id: users.id });
const spots = await openAccounts(db, created.map((user) => ({ ledger: 'real' as const, asset: 'USDT', kind: 'spot' as const, ownerUserId: user.id })));
const system = async (kind: 'deposit_clearing' | 'withdrawal_clearing', key: string) =>
  (await openAccounts(db, [{ ledger: 'real', asset: 'USDT', kind, shard: systemShard(key) }]))[0];

let counter = 0;
const nextId = () => `crash-${process.pid}-${(counter += 1)}`;
const pick = <T>(items: readonly T[]) => items[Math.floor(Math.random() * items.length)];
const openPendings: string[] = [];

async function nextBatch(): Promise<TransferRequest[]> {
  const choice = Math.random();
  const from = pick(spots);
  if (choice < 0.3) {
    return [{ id: nextId(), debitAccountId: await system('deposit_clearing', String(from)), creditAccountId: from, amountAtomic: 1_000_000n, kind: 'deposit', reference: 'crash' }];
  }
  if (choice < 0.55) {
    const to = pick(spots.filter((spot) => spot !== from));
    return [{ id: nextId(), debitAccountId: from, creditAccountId: to, amountAtomic: 300_000n, kind: 'correction', reference: 'crash' }];
  }
  if (choice < 0.8 || openPendings.length === 0) {
    return [{ id: nextId(), debitAccountId: from, creditAccountId: await system('withdrawal_clearing', String(from)), amountAtomic: 200_000n, kind: 'withdrawal', reference: 'crash', pending: true }];
  }
  const pendingId = openPendings.splice(Math.floor(Math.random() * openPendings.length), 1)[0];
  return [{ id: nextId(), pendingId, action: Math.random() < 0.5 ? 'post' : 'void' }];
}

process.stdout.write('ready\n');
await Promise.all(Array.from({ length: 4 }, async () => {
  for (;;) {
    const batch = await nextBatch();
    const result = await postTransfers(db, batch);
    if (!result.ok) continue;
    for (const transfer of result.transfers) if (transfer.phase === 'pending') openPendings.push(transfer.id);
    process.stdout.write(`${JSON.stringify(batch.map((request) => request.id))}\n`);
  }
}));
