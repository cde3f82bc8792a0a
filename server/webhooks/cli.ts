/**
 * npm run webhooks -- add <url> --events inquiry.created,alert.confirmed [--description D] [--dev]
 * npm run webhooks -- list
 * npm run webhooks -- remove <id>
 * npm run webhooks -- report
 *
 * The signed webhooks a CRM receives (docs/leads.md, "Webhooks"). `add` prints the endpoint's
 * secret once (whsec_...): the receiver verifies each delivery with it. `--dev` lets an endpoint be
 * http or on a private network (development only). `report`: each endpoint's deliveries, delivered,
 * waiting (and retrying), failed, the last error. The database is the one `npm start` uses
 * (DATABASE_URL, else the embedded PostgreSQL in DATA_DIR, running or not).
 * Exit code: 0 done, 1 refused or failed, 2 bad usage.
 */
import { resolve } from 'node:path';
import { openForCommand } from '../db/open-for-command.ts';
import { migrate } from '../db/setup.ts';
import { webhooks } from './command.ts';

const root = resolve(import.meta.dirname, '../..');
const dataDir = resolve(root, process.env.DATA_DIR ?? '.data');

const { code, out, err } = await webhooks(process.argv.slice(2), async () => {
  const opened = await openForCommand(dataDir);
  try {
    await migrate(opened.db);
  } catch (error) {
    await opened.close();
    throw error;
  }
  return opened;
});
for (const line of out) console.log(line);
for (const line of err) console.error(line);
process.exitCode = code;
