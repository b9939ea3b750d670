// The loan offers in the back office: listed to admins and finance, edited by admins only (audited),
// the pledge LTVs kept rising (initial < margin call < liquidation < 100 %), and a change of rate
// changing the agreement's terms (an application signed before is refused as loan_terms_changed).
import { describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { loanAdminPaths, type LoanSetting } from '../../../src/api/contract/loans.ts';
import { auditLog } from '../../../server/db/schema.ts';
import { expectOk, expectRefused, forEachDatabase } from '../helpers.ts';
import { createOperator, operatorLogin } from '../adminHelpers.ts';
import { applyCredit, borrower, settingOf, termsHash } from './loanHelpers.ts';

forEachDatabase((server) => {
  describe('POST /api/admin/loans/settings/:id', () => {
    it('keeps the LTVs rising, is admin-only and audited, and a new rate changes the terms to sign', async () => {
      const admin = await operatorLogin(server, await createOperator(server, 'admin'));
      const finance = await operatorLogin(server, await createOperator(server, 'finance'));
      const listed = expectOk(await server.get(loanAdminPaths.settings, {}, { token: finance })).body.result as LoanSetting[];
      expect(listed.map((setting) => [setting.type, setting.collateralAsset ?? null])).toEqual([['credit', null], ['pledge', 'BTC'], ['pledge', 'ETH']]);
      const btc = listed[1];
      const path = loanAdminPaths.setting.replace(':id', btc.id);
      expectRefused(await server.post(path, { marginCallLtv: '60' }, { token: admin }), 400, 'invalid_request');
      expectRefused(await server.post(path, { liquidationLtv: '100' }, { token: admin }), 400, 'invalid_request');
      expectRefused(await server.post(path, { initialLtv: '85' }, { token: admin }), 400, 'invalid_request');
      expectRefused(await server.post(path, { minDays: 400 }, { token: admin }), 400, 'invalid_request');
      expectRefused(await server.post(loanAdminPaths.setting.replace(':id', listed[0].id), { initialLtv: '50' }, { token: admin }), 400, 'invalid_request');
      expectRefused(await server.post(path, { initialLtv: '60' }, { token: finance }), 403, 'forbidden');
      expect(await settingOf(server, 'pledge', 'BTC')).toMatchObject({ initialLtv: '65', marginCallLtv: '80', liquidationLtv: '90' });
      const changed = expectOk(await server.post(path, { initialLtv: '60', marginCallLtv: '75.5' }, { token: admin })).body.result;
      expect(changed).toMatchObject({ initialLtv: '60', marginCallLtv: '75.5', liquidationLtv: '90' });
      const audits = await server.db.select().from(auditLog).where(sql`${auditLog.action} = 'loan_setting.update' and ${auditLog.targetId} = ${btc.id}`);
      expect(audits).toHaveLength(1);

      const user = await borrower(server);
      const credit = await settingOf(server, 'credit');
      const signedHash = await termsHash(server, user, credit.id, '500', 30);
      expectOk(await server.post(loanAdminPaths.setting.replace(':id', credit.id), { dailyRate: '0.06' }, { token: admin }));
      expect(await termsHash(server, user, credit.id, '500', 30)).not.toBe(signedHash);
      expectRefused(await applyCredit(server, user, '500', 30, { termsHash: signedHash }), 409, 'loan_terms_changed');
      expectOk(await applyCredit(server, user, '500', 30));
      expectOk(await server.post(loanAdminPaths.setting.replace(':id', credit.id), { dailyRate: '0.05' }, { token: admin }));
    });
  });
});
