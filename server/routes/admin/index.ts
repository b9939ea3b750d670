// Every /api/admin route, behind the operator guard (plugins/operatorAuth.ts). Areas add their
// module's registration here.
import type { FastifyInstance } from 'fastify';
import { registerOperatorAuth } from '../../plugins/operatorAuth.ts';
import type { Services } from '../../domain/kernel/services.ts';
import { operatorRoutes } from './operators.ts';
import { ledgerAdminRoutes } from './ledger.ts';
import { auditRoutes } from './audit.ts';
import { withdrawalAdminRoutes } from './withdrawals.ts';
import { rechargeAdminRoutes } from './recharges.ts';
import { settingsAdminRoutes } from './settings.ts';
import { liabilityAdminRoutes } from './liabilities.ts';
import { tradeAdminRoutes } from './trade.ts';
import { identityAdminRoutes } from './identity.ts';
import { userAdminRoutes } from './users.ts';
import { operatorSecurityRoutes } from './operatorSecurity.ts';
import { chatAdminRoutes } from './chat.ts';
import { contentAdminRoutes } from './content.ts';
import { productAdminRoutes } from './products.ts';
import { loanAdminRoutes } from './loans.ts';
import { levelAdminRoutes } from './levels.ts';
import { jobAdminRoutes } from './jobs.ts';
import { competitionAdminRoutes } from './competitions.ts';
import { ieoAdminRoutes } from './ieo.ts';
import { rewardAdminRoutes } from './rewards.ts';
import { teamAdminRoutes } from './team.ts';
import { settingChangeAdminRoutes } from './settingChanges.ts';

export function adminRoutes(api: FastifyInstance, services: Services) {
  registerOperatorAuth(api, services);
  operatorRoutes(api, services);
  ledgerAdminRoutes(api, services);
  auditRoutes(api, services);
  withdrawalAdminRoutes(api, services);
  rechargeAdminRoutes(api, services);
  settingsAdminRoutes(api, services);
  liabilityAdminRoutes(api, services);
  tradeAdminRoutes(api, services);
  identityAdminRoutes(api, services);
  userAdminRoutes(api, services);
  operatorSecurityRoutes(api, services);
  chatAdminRoutes(api, services);
  contentAdminRoutes(api, services);
  productAdminRoutes(api, services);
  loanAdminRoutes(api, services);
  levelAdminRoutes(api, services);
  jobAdminRoutes(api, services);
  competitionAdminRoutes(api, services);
  ieoAdminRoutes(api, services);
  rewardAdminRoutes(api, services);
  teamAdminRoutes(api, services);
  settingChangeAdminRoutes(api, services);
}
