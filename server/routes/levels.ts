// /api/user/appLevels/list (issue 22): the VIP levels with their thresholds in USDT, the credit
// limit each adds and how many open products each unlocks; public. With a live session it adds
// the caller's level, highest level, total assets in USDT when last checked, when, and what is
// still needed for the next level. A stale token is answered like no token (the list is public).
import type { FastifyInstance } from 'fastify';
import { levelPaths, type Levels } from '../../src/api/contract/levels.ts';
import { loadLevels, productsUnlockedByLevel, userLevelRow, usdtText } from '../domain/core/levels/levels.ts';
import { findAsset } from '../domain/kernel/ledger/assets.ts';
import { resolveSession } from '../domain/kernel/sessions.ts';
import { ok } from '../lib/envelope.ts';
import type { Services } from '../domain/kernel/services.ts';

export function levelRoutes(app: FastifyInstance, services: Services) {
  app.get(levelPaths.list, async (request) => {
    const { db, clock } = services;
    const header = request.headers['x-access-token'];
    const token = Array.isArray(header) ? header[0] : header;
    const session = token ? await resolveSession(db, clock, services.limits, token, request.ip) : undefined;
    const [levels, usdtAsset] = await Promise.all([loadLevels(db), findAsset(db, 'USDT')]);
    const scale = usdtAsset?.scale ?? 6;
    const unlocked = await productsUnlockedByLevel(db, levels);
    const answer: Levels = {
      levels: levels.map((row) => ({
        level: row.level, name: row.name, minAssets: usdtText(row.minAssets, scale),
        creditLimit: usdtText(row.creditLimit, scale), productsUnlocked: unlocked.get(row.level) ?? 0,
      })),
    };
    if (session) {
      const mine = await userLevelRow(db, clock, session.userId);
      const next = levels.find((row) => row.level > mine.level && row.minAssets > mine.assetsAtomic);
      answer.my = {
        level: mine.level, highestLevel: mine.highestLevel, assets: usdtText(mine.assetsAtomic, scale),
        checkedAt: mine.checkedAt.getTime(),
        ...(next ? { toNext: usdtText(next.minAssets - mine.assetsAtomic, scale) } : {}),
      };
    }
    return ok(answer);
  });
}
