// The operator command line: `npm run operator -- add EMAIL --role admin|finance [--json]` and
// `npm run operator -- disable EMAIL`.
// It opens the same database the server uses (DATA_DIR's embedded PGlite, or DATABASE_URL) and
// creates an operator with a generated password and TOTP secret, shown once, or disables one. PostgreSQL takes it
// any time; the embedded database belongs to one process, so while a server runs on it the CLI
// says so and stops (stop the server, add the operator, start it again).
import path from 'node:path';
import { parseArgs } from 'node:util';
import { loadConfig } from './lib/config.ts';
import { openDatabase } from './db/client.ts';
import { DatabaseInUseError } from './db/pgliteLock.ts';
import { AppError } from './lib/errors.ts';
import { addOperator, disableOperator } from './domain/kernel/operators.ts';
import { systemClock } from './lib/time.ts';
import { totpUri } from './domain/kernel/totp.ts';
import { operatorRoles, type OperatorRole } from '../src/api/contract/admin.ts';

const usage = `Usage: npm run operator -- add EMAIL --role ${operatorRoles.join('|')} [--json]
       npm run operator -- disable EMAIL

  add      creates a back-office operator and prints its password and TOTP secret (shown once).
  --json   prints only {"email", "password", "totpSecret"} on stdout.
  disable  stops an operator logging in and ends its open sessions.

Uses DATABASE_URL when set, else the embedded database in DATA_DIR (default ./data).`;

const emailPattern = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

class UsageError extends Error {}

async function main(argv: string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv, allowPositionals: true, strict: true,
    options: { role: { type: 'string' }, json: { type: 'boolean', default: false }, help: { type: 'boolean', short: 'h' } },
  });
  if (values.help) {
    console.log(usage);
    return 0;
  }
  const [command, email, ...extra] = positionals;
  if (command !== 'add' && command !== 'disable') throw new UsageError(command ? `Unknown command "${command}".` : 'No command given.');
  if (!email || extra.length > 0) throw new UsageError(`${command} takes one e-mail address.`);
  if (!emailPattern.test(email) || email.length > 254) throw new UsageError(`"${email}" is not an e-mail address.`);
  const role = values.role as OperatorRole | undefined;
  if (command === 'add' && (!role || !operatorRoles.includes(role))) throw new UsageError(`--role must be one of: ${operatorRoles.join(', ')}.`);
  if (command === 'disable' && (role !== undefined || values.json)) throw new UsageError('disable takes no --role or --json.');

  const config = loadConfig();
  const database = await openDatabase(config.databaseUrl
    ? { databaseUrl: config.databaseUrl } : { pgliteDir: path.join(config.dataDir, 'pgdata') });
  try {
    if (command === 'disable') {
      const disabled = await disableOperator(database.db, systemClock, email, 'cli');
      console.log(`Operator ${disabled.email} disabled; ${disabled.sessionsEnded} open session(s) ended.`);
      return 0;
    }
    const created = await addOperator(database.db, email, role!, 'cli');
    if (values.json) {
      process.stdout.write(`${JSON.stringify({ email: created.email, password: created.password, totpSecret: created.totpSecret })}\n`);
    } else {
      console.log(`Operator ${created.email} (${role}) created. Shown this once:`);
      console.log(`  Password:    ${created.password}`);
      console.log(`  TOTP secret: ${created.totpSecret}`);
      console.log(`  TOTP URI:    ${totpUri(created.totpSecret, created.email)}`);
      console.log('Add the secret (or the URI) to an authenticator app; the back office asks for its 6-digit code at login.');
    }
    return 0;
  } finally {
    await database.close();
  }
}

try {
  process.exitCode = await main(process.argv.slice(2));
} catch (error) {
  if (error instanceof UsageError || (error instanceof TypeError && 'code' in error && String(error.code).startsWith('ERR_PARSE_ARGS'))) {
    console.error(`${error.message}\n\n${usage}`);
    process.exitCode = 2;
  } else if (error instanceof DatabaseInUseError) {
    console.error(`${error.message}\nA server is running on the embedded database: stop it, add the operator, then start it `
      + 'again (with DATABASE_URL set, operators can be added while the server runs).');
    process.exitCode = 1;
  } else if (error instanceof AppError) {
    console.error(error.message);
    process.exitCode = 1;
  } else {
    throw error;
  }
}
