// /api/admin/settings/currencies: what the wallet offers. Admin operators switch currencies and
// networks on and off and set deposit addresses, minimums, fees and the USDT rate used where the
// feed has no price. Every change is audited with the currency before and after, in the same
// transaction.
import type { FastifyInstance } from 'fastify';
import type { Static } from '@sinclair/typebox';
import {
  CurrencyParams, CurrencySettingsBody, NetworkParams, NetworkSettingsBody, walletAdminPaths,
} from '../../../src/api/contract/wallet.ts';
import { recordAudit } from '../../domain/kernel/audit.ts';
import { adminCurrencies, updateNetworkSettings } from '../../domain/core/wallet/currencies.ts';
import { changeSetting } from '../../domain/kernel/settingChanges.ts';
import { currencyRateSpec } from './houseSettings.ts';
import { operatorOnly } from '../../plugins/operatorAuth.ts';
import { ok } from '../../lib/envelope.ts';
import type { Services } from '../../domain/kernel/services.ts';

export function settingsAdminRoutes(app: FastifyInstance, services: Services) {
  app.get(walletAdminPaths.currencies, { preHandler: operatorOnly(['admin', 'finance']) },
    async () => ok(await adminCurrencies(services.db)));

  app.post<{ Params: Static<typeof CurrencyParams>; Body: Static<typeof CurrencySettingsBody> }>(walletAdminPaths.currency,
    { schema: { params: CurrencyParams, body: CurrencySettingsBody }, preHandler: operatorOnly(['admin']) },
    async (request) => ok(await services.db.transaction(async (tx) => {
      // A change of the USDT rate waits for a second operator (routes/admin/houseSettings.ts).
      const outcome = await changeSetting(tx, currencyRateSpec(request.params.code, request.body), request.operator!.id, services.clock);
      if (outcome.applied) return outcome.after;
      return { ...(await adminCurrencies(tx)).find((currency) => currency.currency === request.params.code), pendingChange: outcome.change };
    })));

  app.post<{ Params: Static<typeof NetworkParams>; Body: Static<typeof NetworkSettingsBody> }>(walletAdminPaths.network,
    { schema: { params: NetworkParams, body: NetworkSettingsBody }, preHandler: operatorOnly(['admin']) },
    async (request) => ok(await services.db.transaction(async (tx) => {
      const { code, network } = request.params;
      const { before, after } = await updateNetworkSettings(tx, code, network, request.body, services.clock.now());
      await recordAudit(tx, {
        operatorId: request.operator!.id, action: 'settings.network', targetType: 'currency_network', targetId: `${code}:${network}`,
        before, after,
      }, services.clock);
      return after;
    })));
}
