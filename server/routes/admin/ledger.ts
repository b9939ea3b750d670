// /api/admin/ledger/check: the operator's ledger check (server/domain/kernel/ledger/verify.ts). The run
// is recorded in the audit trail with its outcome, so who checked when, and what they saw, is kept.
import type { FastifyInstance } from 'fastify';
import { adminPaths, type LedgerCheckResult } from '../../../src/api/contract/admin.ts';
import { verifyLedger } from '../../domain/kernel/ledger/verify.ts';
import { recordAudit } from '../../domain/kernel/audit.ts';
import { operatorOnly } from '../../plugins/operatorAuth.ts';
import { ok } from '../../lib/envelope.ts';
import type { Services } from '../../domain/kernel/services.ts';

export function ledgerAdminRoutes(app: FastifyInstance, services: Services) {
  app.get(adminPaths.ledgerCheck, { preHandler: operatorOnly(['admin', 'finance']) }, async (request) => {
    const check = await verifyLedger(services.db);
    const result: LedgerCheckResult = {
      ...check,
      assets: check.assets.map((asset) => ({
        currency: asset.currency, ledger: asset.ledger, sum: asset.sum.toString(), pendingSum: asset.pendingSum.toString(),
      })),
      checkedAt: services.clock.now().getTime(),
    };
    await recordAudit(services.db, {
      operatorId: request.operator!.id, action: 'ledger.check', targetType: 'ledger', targetId: null,
      after: {
        chainValid: check.chainValid, balancesValid: check.balancesValid, conserved: check.conserved,
        transfers: check.transfers, accounts: check.accounts, headsDigest: check.headsDigest, problems: check.problems.length,
      },
    }, services.clock);
    return ok(result);
  });
}
