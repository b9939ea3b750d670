// Throw-away PostgreSQL databases for tests and benchmarks: created on the server of an admin URL
// (TEST_DATABASE_URL), dropped (with FORCE, so a leftover connection cannot keep one alive) after.
import pg from 'pg';

export async function withAdminClient<T>(adminUrl: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

export const dropScratchDatabase = (adminUrl: string, name: string) =>
  withAdminClient(adminUrl, (client) => client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)).then(() => undefined);

/** A fresh, empty database `name` (an old one of that name is dropped first); returns its URL. */
export async function createScratchDatabase(adminUrl: string, name: string): Promise<string> {
  await withAdminClient(adminUrl, async (client) => {
    await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await client.query(`CREATE DATABASE ${name}`);
  });
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return url.toString();
}
