// Seed data for a fresh install: system settings, the ledger's assets, and a demo account when asked for.
import { eq } from 'drizzle-orm';
import { systemSettings, users } from './db/schema.ts';
import type { Db } from './db/client.ts';
import { hashPassword } from './domain/kernel/passwords.ts';
import { seedLedgerAssets } from './domain/kernel/ledger/assets.ts';
import { demoOperator, seedDemoOperator } from './domain/kernel/operators.ts';
import { seedDemoDepositAddresses, seedWalletCurrencies } from './domain/core/wallet/currencies.ts';
import { seedTradingSettings } from './domain/core/trading/settings.ts';
import { seedDemoContent } from './domain/programs/content/seedContent.ts';
import { seedVipLevels } from './domain/core/levels/levels.ts';
import { seedLoanSettings } from './domain/programs/loans/settings.ts';
import { seedDemoProducts } from './domain/programs/products/seedProducts.ts';
import { seedDemoCompetition } from './domain/programs/competitions/seedCompetitions.ts';
import { seedDemoIeo } from './domain/programs/ieo/seedIeo.ts';
import { seedTeamCommissionRates } from './domain/programs/team/team.ts';
import { seedWelfareTasks } from './domain/programs/rewards/welfare.ts';
import { seedVipRewards } from './domain/programs/rewards/vip.ts';
import { seedDemoRewardPool } from './domain/programs/rewards/fundings.ts';

export const demoAccount = { email: 'demo@bourse.local', password: 'Demo2026pass' } as const;

const defaultSettings: Record<string, string> = {
  // Desktop visitors see the app inside a phone frame (pc.html) with a QR code to open it on a phone.
  sys_set: JSON.stringify({ isPcLimite: true }),
};

/** `now`: when the demo content is published (the current time unless a test's clock says otherwise). */
export async function seed(db: Db, options: { demo: boolean; now?: Date }) {
  for (const [key, value] of Object.entries(defaultSettings)) {
    await db.insert(systemSettings).values({ key, value }).onConflictDoNothing();
  }
  // The currencies the ledger holds (USDT, USDC, BTC, ETH with their scales and limits).
  await seedLedgerAssets(db);
  // The wallet's currencies and networks with minimums and fees; deposit addresses only in a demo.
  await seedWalletCurrencies(db);
  // Contract, second-contract and swap settings (domain/core/trading/settings.ts), edited in the back office.
  await seedTradingSettings(db);
  // The back office's demo operator (domain/kernel/operators.ts): created with a demo, disabled without one.
  await seedDemoOperator(db, options.demo);
  // VIP levels and the credit and pledge loan offers (issue 22), edited in the back office.
  await seedVipLevels(db);
  await seedLoanSettings(db);
  // Team commission rates per level (issue 23): 20 %, 10 %, 5 % of the fees, edited in the back office.
  await seedTeamCommissionRates(db);
  // The six welfare tasks and each VIP level's bonus and weekly red envelope (issue 23), edited in the back office.
  await seedWelfareTasks(db);
  await seedVipRewards(db);
  if (!options.demo) return undefined;
  await seedDemoDepositAddresses(db);
  const [existing] = await db.select({ id: users.id }).from(users).where(eq(users.email, demoAccount.email)).limit(1);
  if (!existing) {
    await db.insert(users).values({
      email: demoAccount.email, passwordHash: await hashPassword(demoAccount.password), inviteCode: 'DEMO2026',
      surname: 'Demo', firstName: 'Trader',
    }).onConflictDoNothing();
  }
  // Notices, a pop-up announcement to the demo account, help and news in English and Chinese (issue 21), once.
  const [demoUser] = await db.select({ id: users.id }).from(users).where(eq(users.email, demoAccount.email)).limit(1);
  await seedDemoContent(db, demoOperator.email, options.now ?? new Date(), demoUser.id);
  // Products of each kind with funded reserves and a published mining reward (issue 22), once.
  await seedDemoProducts(db, options.now ?? new Date());
  // A trading competition in progress with a funded prize pool and three entrants (issue 23), once.
  await seedDemoCompetition(db, options.now ?? new Date());
  // A token offering open for applications, its lottery committed (issue 23), once.
  await seedDemoIeo(db, options.now ?? new Date());
  // The rewards pool funded with 20 000 USDT so the welfare tasks and red envelopes pay (issue 23), once.
  await seedDemoRewardPool(db, options.now ?? new Date());
  return demoAccount;
}
