// /api/admin/levels/* (issue 22): the VIP levels an operator sees and edits (name, threshold in
// USDT, credit-limit addition). Thresholds must keep rising with the level; an edit is audited
// in its own transaction and every user's level is then recomputed in the background (the daily
// job would do it too), so a lowered threshold raises users without waiting for tomorrow.
import type { FastifyInstance } from 'fastify';
import { Type, type Static } from '@sinclair/typebox';
import { asc, eq } from 'drizzle-orm';
import { UpdateLevelBody, levelAdminPaths, type VipLevel } from '../../../src/api/contract/levels.ts';
import { vipLevels } from '../../db/schema.ts';
import { recordAudit } from '../../domain/kernel/audit.ts';
import { findAsset } from '../../domain/kernel/ledger/assets.ts';
import { parseAmount } from '../../domain/kernel/ledger/amounts.ts';
import {
  loadLevels, productsUnlockedByLevel, recomputeAllLevels, usdtText, type LevelRow,
} from '../../domain/core/levels/levels.ts';
import { operatorOnly } from '../../plugins/operatorAuth.ts';
import { AppError, badRequest, notFound } from '../../lib/errors.ts';
import { ok } from '../../lib/envelope.ts';
import type { Services } from '../../domain/kernel/services.ts';
import type { Executor } from '../../db/client.ts';

const writers = ['admin'] as const;
const readers = ['admin', 'finance'] as const;

const LevelParams = Type.Object({ level: Type.Integer({ minimum: 0, maximum: 20 }) });

async function usdtScale(db: Executor) {
  return (await findAsset(db, 'USDT'))?.scale ?? 6;
}

async function wireLevels(db: Executor, levels: LevelRow[]): Promise<VipLevel[]> {
  const [scale, unlocked] = await Promise.all([usdtScale(db), productsUnlockedByLevel(db, levels)]);
  return levels.map((row) => ({
    level: row.level, name: row.name, minAssets: usdtText(row.minAssets, scale),
    creditLimit: usdtText(row.creditLimit, scale), productsUnlocked: unlocked.get(row.level) ?? 0,
  }));
}

/** An operator's USDT amount at USDT's scale, zero allowed, or a refusal naming the field. */
function usdtAmount(field: string, text: string, scale: number): bigint {
  const parsed = parseAmount(text, scale);
  if (!parsed.ok) throw new AppError(400, parsed.refusal, `${field}: not a valid USDT amount (${parsed.refusal}).`, { field, scale });
  return parsed.atomic;
}

export function levelAdminRoutes(app: FastifyInstance, services: Services) {
  app.get(levelAdminPaths.levels, { preHandler: operatorOnly(readers) },
    async () => ok(await wireLevels(services.db, await loadLevels(services.db))));

  app.post<{ Params: Static<typeof LevelParams>; Body: Static<typeof UpdateLevelBody> }>(levelAdminPaths.level,
    { schema: { params: LevelParams, body: UpdateLevelBody }, preHandler: operatorOnly(writers) }, async (request) => {
      const { db, clock } = services;
      const { level } = request.params;
      const body = request.body;
      const scale = await usdtScale(db);
      const minAssets = body.minAssets === undefined ? undefined : usdtAmount('minAssets', body.minAssets, scale);
      const creditLimit = body.creditLimit === undefined ? undefined : usdtAmount('creditLimit', body.creditLimit, scale);
      const name = body.name?.trim();
      if (body.name !== undefined && !name) throw badRequest('invalid_request', 'The level needs a name.');
      const updated = await db.transaction(async (tx) => {
        const levels = await tx.select().from(vipLevels).orderBy(asc(vipLevels.level)).for('update');
        const before = levels.find((row) => row.level === level);
        if (!before) throw notFound('not_found', `There is no level ${level}.`);
        if (level === 0 && minAssets !== undefined && minAssets !== 0n) {
          throw badRequest('invalid_request', 'Level 0 applies to everyone: its threshold stays 0.');
        }
        const after: LevelRow = {
          ...before, ...(name ? { name } : {}), ...(minAssets === undefined ? {} : { minAssets }),
          ...(creditLimit === undefined ? {} : { creditLimit }), updatedAt: clock.now(),
        };
        const next = levels.map((row) => (row.level === level ? after : row));
        for (let i = 1; i < next.length; i += 1) {
          if (next[i].minAssets <= next[i - 1].minAssets) {
            throw badRequest('invalid_request', `Thresholds must rise with the level: level ${next[i].level} needs more than `
              + `${usdtText(next[i - 1].minAssets, scale)} USDT (level ${next[i - 1].level}).`);
          }
        }
        await tx.update(vipLevels).set({
          name: after.name, minAssets: after.minAssets, creditLimit: after.creditLimit, updatedAt: after.updatedAt,
        }).where(eq(vipLevels.level, level));
        await recordAudit(tx, {
          operatorId: request.operator!.id, action: 'level.update', targetType: 'vip_level', targetId: String(level),
          before: { name: before.name, minAssets: usdtText(before.minAssets, scale), creditLimit: usdtText(before.creditLimit, scale) },
          after: { name: after.name, minAssets: usdtText(after.minAssets, scale), creditLimit: usdtText(after.creditLimit, scale) },
        }, clock);
        return after;
      });
      if (minAssets !== undefined) {
        void recomputeAllLevels(db, clock).catch((error: unknown) => app.log.error({ err: error }, 'vip levels recompute failed'));
      }
      const [wire] = await wireLevels(db, [updated]);
      return ok(wire);
    });
}
