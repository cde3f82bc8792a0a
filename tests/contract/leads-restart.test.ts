/**
 * A server process killed with webhooks waiting (docs/leads.md): started again on the same
 * database, it delivers them within 30 s, each taken once and signed (verified with the
 * `standardwebhooks` package).
 */
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../server/db/database.ts';
import { openPostgres } from '../../server/db/postgres.ts';
import { migrate } from '../../server/db/setup.ts';
import { addEndpoint } from '../../server/webhooks/endpoints.ts';
import { inquiryBody } from '../support/inquiry.ts';
import { sleep, until } from '../support/leads.ts';
import { startPostgres, type PostgresServer } from '../support/postgres.ts';
import { startServerProcess, type ServerProcess } from '../support/server-process.ts';
import { stopAll } from '../support/stop-all.ts';
import { startWebhookReceiver, type WebhookReceiver } from '../support/webhook-receiver.ts';

describe('leads: webhooks waiting when the server is killed are delivered after it starts again, each taken once', () => {
  let postgres: PostgresServer;
  let db: Database;
  let server: ServerProcess | undefined;
  let hooks: WebhookReceiver;
  let secret: string;
  beforeAll(async () => {
    postgres = await startPostgres();
    db = await openPostgres(postgres.url);
    await migrate(db);
    hooks = await startWebhookReceiver();
    secret = (await addEndpoint(db, { url: hooks.url, events: ['inquiry.created'], dev: true })).secret;
  }, 120_000);
  afterAll(() => stopAll(server, hooks, db, postgres));

  it('delivers within 30 s of the restart', async () => {
    const env = { DATABASE_URL: postgres.url, SEED_LISTINGS: '200', TRUST_PROXY: '1' };
    server = await startServerProcess(env);
    await server.waitFor(/data API ready/);
    hooks.mode = 'down';
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) {
      const res = await fetch(`${server.url}/functions/v1/send-property-inquiry`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', 'X-Forwarded-For': `10.6.0.${i + 1}` },
        body: JSON.stringify(inquiryBody({ message: `Consulta ${i}` })),
      });
      ids.push(String(((await res.json()) as { id: string }).id));
    }
    await until(() => ids.every((id) => hooks.deliveries.some((d) => d.body.includes(id))), 20_000);
    await server.kill();
    hooks.mode = 'ok';
    const restarted = Date.now();
    server = await startServerProcess(env, { port: server.port });
    await until(
      () => ids.every((id) => hooks.deliveries.some((d) => d.answered === 200 && d.body.includes(id))),
      30_000,
    );
    expect(Date.now() - restarted).toBeLessThanOrEqual(30_000);
    await sleep(3000);
    const taken = hooks.taken();
    for (const d of hooks.deliveries)
      if (d.answered === 200) expect(taken.get(String(d.headers['webhook-id']))).toBe(1);
    expect([...taken.values()]).toEqual([1, 1, 1]);
    for (const d of hooks.deliveries)
      expect((new Webhook(secret).verify(d.body, d.headers as Record<string, string>) as { type: string }).type).toBe(
        'inquiry.created',
      );
  }, 120_000);
});
