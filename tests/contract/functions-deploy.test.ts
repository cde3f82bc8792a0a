/**
 * The deploy path of the functions (docs/deployment.md "The functions"): the real
 * Supabase CLI's `functions deploy --use-api` walks each function's imports from supabase/ and
 * uploads what it finds (to a stand-in of the Management API here). Each function, written out from
 * those files alone, type-checks under Deno, and the inquiry function runs from them and stores an
 * inquiry: an import the CLI's walk cannot follow (no extension, a path it cannot read) fails here,
 * not on the platform.
 */
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { denoCheck, deployWithCli, writeUploaded, type UploadedFunction } from '../support/functions-deploy.ts';
import { startHostedFunction, type HostedFunction } from '../support/hosted-function.ts';
import { clientHeaders } from '../support/servers.ts';

/** The functions config.toml declares, with their entrypoints. */
const CONFIGURED = [...readFileSync(new URL('../../supabase/config.toml', import.meta.url), 'utf8').matchAll(/\[functions\.([a-z0-9-]+)\][^[]*?entrypoint = "\.\/([^"]+)"/g)].map((m) => ({
  slug: m[1] as string,
  entrypoint: `supabase/${m[2] as string}`,
}));

describe('supabase functions deploy --use-api', () => {
  let uploads: Map<string, UploadedFunction>;
  beforeAll(async () => {
    ({ uploads } = await deployWithCli());
  }, 180_000);

  it('uploads every configured function with its entrypoint, and only the shared code it imports', () => {
    expect(CONFIGURED.map((f) => f.slug).sort()).toEqual(['saved-searches', 'send-property-inquiry']);
    expect([...uploads.keys()].sort()).toEqual(CONFIGURED.map((f) => f.slug).sort());
    for (const { slug, entrypoint } of CONFIGURED) {
      const fn = uploads.get(slug) as UploadedFunction;
      expect(fn.metadata.entrypoint_path).toBe(entrypoint);
      expect(fn.metadata.verify_jwt).toBe(false);
      const paths = [...fn.files.keys()];
      expect(paths).toContain(entrypoint);
      // the shared rules and the texts, nothing of the server, the elements or the tests
      for (const path of paths) expect(path, slug).toMatch(/^(supabase\/functions\/|core\/)/);
      expect(paths).toContain('core/locales/en.json');
      expect(paths).toContain('core/locales/es.json');
    }
  });

  it.each(CONFIGURED)('$slug type-checks under Deno from the uploaded files alone', async ({ slug, entrypoint }) => {
    const dir = writeUploaded(uploads.get(slug) as UploadedFunction);
    const checked = await denoCheck(dir, entrypoint);
    expect(checked.status, checked.output).toBe(0);
  }, 180_000);

  describe('the inquiry function run from what was uploaded', () => {
    let hosted: HostedFunction;
    beforeAll(async () => {
      hosted = await startHostedFunction({ name: 'send-property-inquiry', dir: writeUploaded(uploads.get('send-property-inquiry') as UploadedFunction) });
    }, 240_000);
    afterAll(async () => {
      await hosted?.close();
    });

    it('stores an inquiry and mails it', async () => {
      const { fn, db, api } = hosted;
      const res = await fetch(fn.url, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', ...clientHeaders('10.9.0.1') },
        body: JSON.stringify({ name: 'Lucía Deploy', email: 'lucia.deploy@example.com', phone: '', message: 'Hola', idempotencyKey: `deploy-${process.pid}`, lang: 'es' }),
      });
      expect(res.status, await res.clone().text()).toBe(200);
      const { id } = (await res.json()) as { id: string };
      const [row] = await db.admin.query<{ n: number }>('select count(*)::int as n from public.inquiries where id = $1', [id]);
      expect(row?.n).toBe(1);
      await fn.drain();
      expect(api.sent.filter((m) => m.text.includes('Lucía Deploy'))).toHaveLength(1);
    });
  });
});
