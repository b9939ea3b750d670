// Demo products (issue 22). Filled by the products work.
import type { Db } from '../../db/client.ts';

/** With a demo: a few products of each kind with funded reserves, once. */
export async function seedDemoProducts(_db: Db, _now: Date): Promise<void> {}
