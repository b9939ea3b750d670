// Operators for server tests: created straight in the database (as the CLI does), logged in
// through the real protocol with the code their authenticator would show at the suite's time.
import { adminPaths, type OperatorRole } from '../../src/api/contract/admin.ts';
import { settingChangePaths } from '../../src/api/contract/settingChanges.ts';
import { createOperator as createOperatorRow, type OperatorCredentials } from '../../server/domain/kernel/operators.ts';
import { totpCode, totpPeriodSeconds } from '../../server/domain/kernel/totp.ts';
import { expectOk, type TestServer } from './helpers.ts';

export type TestOperator = OperatorCredentials & { role: OperatorRole };

export async function createOperator(server: TestServer, role: OperatorRole = 'admin'): Promise<TestOperator> {
  const credentials = await createOperatorRow(server.db, `${server.unique('operator')}@bourse.test`, role);
  return { ...credentials, role };
}

/** The code an operator's authenticator shows now (the suite's clock). */
export const currentTotp = (server: TestServer, op: TestOperator) => totpCode(op.totpSecret, server.clock.now().getTime());

/**
 * Logs in and answers the token. A code is good once, so a second login of the same operator
 * first moves the suite's clock to the next 30-second step.
 */
export async function operatorLogin(server: TestServer, op: TestOperator): Promise<string> {
  let reply = await server.post(adminPaths.login, { account: op.email, password: op.password, totpCode: await currentTotp(server, op) });
  if (reply.status === 400 && reply.body?.result?.error === 'credentials_invalid') {
    server.clock.advance(totpPeriodSeconds * 1000);
    reply = await server.post(adminPaths.login, { account: op.email, password: op.password, totpCode: await currentTotp(server, op) });
  }
  return expectOk(reply).body.result.token as string;
}

/**
 * A guarded setting's answer (issue 38 point 1): when its change waits for a second operator
 * (`pendingChange`), a fresh admin approves it; answers what the setting is then.
 */
export async function approvedBySecondAdmin<T extends Record<string, unknown>>(server: TestServer, answer: T & { pendingChange?: { id: string } }): Promise<T> {
  if (!answer.pendingChange) return answer;
  const token = await operatorLogin(server, await createOperator(server, 'admin'));
  const applied = expectOk(await server.post(settingChangePaths.approve.replace(':id', answer.pendingChange.id), {}, { token })).body.result;
  return applied.after as T;
}

/** Approves, as a fresh admin, every setting change waiting for a second operator (answers how many). */
export async function approvePendingSettingChanges(server: TestServer): Promise<number> {
  const token = await operatorLogin(server, await createOperator(server, 'admin'));
  const pending = expectOk(await server.get(settingChangePaths.list, {}, { token })).body.result as Array<{ id: string }>;
  for (const change of pending) expectOk(await server.post(settingChangePaths.approve.replace(':id', change.id), {}, { token }));
  return pending.length;
}
