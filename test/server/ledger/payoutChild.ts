// A process that runs one payout job and says each batch it commits on stdout ("batch <n>"), for the
// kill -9 test (payoutsKill.test.ts): argv[2] the database URL, argv[3] the job id. It is killed
// half-way; it never finishes on its own unless the test lets it.
import { openDatabase } from '../../../server/db/client.ts';
import { runPayoutJob } from '../../../server/domain/kernel/ledger/payouts.ts';

const [databaseUrl, jobId] = process.argv.slice(2);
const database = await openDatabase({ databaseUrl });
await runPayoutJob(database.db, jobId, { onProgress: (progress) => process.stdout.write(`batch ${progress.batchesDone}\n`) });
process.stdout.write('done\n');
await database.close();
