// Operators for server tests: created straight in the database (as the CLI does), logged in
// through the real protocol with the code their authenticator would show at the suite's time.
import { adminPaths, type OperatorRole } from '../../src/api/contract/admin.ts';
import { createOperator as createOperatorRow, type OperatorCredentials } from '../../server/domain/operators.ts';
import { totpCode, totpPeriodSeconds } from '../../server/domain/totp.ts';
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
