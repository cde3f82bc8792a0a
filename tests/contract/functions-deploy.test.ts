/**
 * The deploy path of the functions (docs/deployment.md "The functions"): the real
 * Supabase CLI's `functions deploy --use-api` walks each function's imports from supabase/ and
 * uploads what it finds (to a stand-in of the Management API here). Each function, written out from
 * those files alone, resolves every import as Deno does to the project's own files, byte for byte
 * (which the test runner's deno stage type-checks), and the inquiry function runs from them and
 * stores an inquiry: an import the CLI's walk cannot follow (no extension, a path it cannot read)
 * fails here, not on the platform.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FUNCTIONS, IMPORT_MAP } from '../support/deno-env.ts';
import { denoGraph, deployWithCli, writeUploaded, type UploadedFunction } from '../support/functions-deploy.ts';
import { startHostedFunction, type HostedFunction } from '../support/hosted-function.ts';
import { clientHeaders } from '../support/servers.ts';
import { until } from '../support/until.ts';

const root = resolve(import.meta.dirname, '../..');

/** The functions config.toml declares, with their entrypoints. */
const CONFIGURED = [...FUNCTIONS];

describe('supabase functions deploy --use-api', () => {
  let uploads: Map<string, UploadedFunction>;
  beforeAll(async () => {
    ({ uploads } = await deployWithCli());
  }, 180_000);

  it('names each npm package once, at the version package.json installs', () => {
    const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as {
      dependencies: Record<string, string>;
    };
    const map = JSON.parse(readFileSync(new URL(`../../${IMPORT_MAP}`, import.meta.url), 'utf8')) as {
      imports: Record<string, string>;
    };
    expect(Object.keys(map.imports).sort()).toEqual(['i18next', 'nodemailer', 'pg']);
    for (const [name, target] of Object.entries(map.imports))
      expect(target).toBe(`npm:${name}@${pkg.dependencies[name]}`);
  });

  it('uploads every configured function with its entrypoint, and only the shared code it imports', () => {
    expect(CONFIGURED.map((f) => f.slug).sort()).toEqual([
      'listing-events',
      'privacy',
      'saved-searches',
      'send-property-inquiry',
      'visits',
    ]);
    expect([...uploads.keys()].sort()).toEqual(CONFIGURED.map((f) => f.slug).sort());
    for (const { slug, entrypoint } of CONFIGURED) {
      const fn = uploads.get(slug) as UploadedFunction;
      expect(fn.metadata.entrypoint_path).toBe(entrypoint);
      expect(fn.metadata.verify_jwt).toBe(false);
      const paths = [...fn.files.keys()];
      expect(paths).toContain(entrypoint);
      // the shared rules and the texts, nothing of the server, the elements or the tests
      for (const path of paths) expect(path, slug).toMatch(/^(supabase\/functions\/|core\/)/);
      // i18next is the mails' translation engine here too (docs/decisions.md #25)
      expect(paths).toContain('core/translate.ts');
      expect(paths).toContain('core/locales/en.json');
      expect(paths).toContain('core/locales/es.json');
    }
  });

  // what Deno reads of each function, resolved from the uploaded files alone, is what it reads in
  // the project, byte for byte: so the test runner's deno stage, which type-checks every configured
  // function in the project, type-checks what was uploaded (a check of each upload again cost 8 s a
  // function of the suite's two cores; the graph, a tenth of a second)
  it.each(CONFIGURED)(
    "$slug: every import, code, types and JSON, resolves from the uploaded files alone, with the uploaded import map, to the project's own files",
    async ({ slug, entrypoint }) => {
      const fn = uploads.get(slug) as UploadedFunction;
      expect(fn.metadata.import_map_path).toBe(IMPORT_MAP);
      expect([...fn.files.keys()]).toContain(IMPORT_MAP);
      const uploaded = await denoGraph(writeUploaded(fn), entrypoint, fn.metadata.import_map_path);
      expect(uploaded.errors).toEqual([]);
      const project = await denoGraph(root, entrypoint);
      expect(project.errors).toEqual([]);
      expect(uploaded.files).toEqual(project.files);
      expect(uploaded.npm).toEqual(project.npm);
      for (const path of [...uploaded.files, IMPORT_MAP])
        expect(fn.files.get(path)?.toString(), path).toBe(readFileSync(resolve(root, path), 'utf8'));
    },
    180_000,
  );

  it('a file missing from the upload, or an import Deno cannot follow, is named', async () => {
    const fn = uploads.get('visits') as UploadedFunction;
    const shared = [...fn.files.keys()].find((path) => path.startsWith('core/') && path.endsWith('.ts')) as string;
    const dir = writeUploaded({ ...fn, files: new Map([...fn.files].filter(([path]) => path !== shared)) });
    expect((await denoGraph(dir, fn.metadata.entrypoint_path)).errors.join('\n')).toContain(shared);
    // an import without its extension, as Node's resolution would allow
    const entry = resolve(dir, fn.metadata.entrypoint_path);
    writeFileSync(entry, `import './nowhere';\n${readFileSync(entry, 'utf8')}`);
    expect((await denoGraph(dir, fn.metadata.entrypoint_path)).errors.join('\n')).toMatch(/nowhere/);
  });

  describe('the inquiry function run from what was uploaded', () => {
    let hosted: HostedFunction;
    beforeAll(async () => {
      hosted = await startHostedFunction({
        name: 'send-property-inquiry',
        dir: writeUploaded(uploads.get('send-property-inquiry') as UploadedFunction),
      });
    }, 240_000);
    afterAll(async () => {
      await hosted?.close();
    });

    it('stores an inquiry and mails it, its labels from the locale files in Spanish and English (i18next under Deno)', async () => {
      const { fn, db, api } = hosted;
      const res = await fetch(fn.url, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', ...clientHeaders('10.9.0.1') },
        body: JSON.stringify({
          name: 'Lucía Deploy',
          email: 'lucia.deploy@example.com',
          phone: '',
          message: 'Hola',
          idempotencyKey: `deploy-${process.pid}`,
          lang: 'es',
        }),
      });
      expect(res.status, await res.clone().text()).toBe(200);
      const { id } = (await res.json()) as { id: string };
      const [row] = await db.admin.query<{ n: number }>(
        'select count(*)::int as n from public.inquiries where id = $1',
        [id],
      );
      expect(row?.n).toBe(1);
      await fn.drain();
      // sent right after the request, in the background: a drain that finds it in flight delivers nothing
      const lucia = () => api.sent.filter((m) => m.text.includes('Lucía Deploy'));
      const mails = await until(() => lucia().length > 0 && lucia(), 30_000, 'the inquiry mail');
      expect(mails).toHaveLength(1);
      expect(mails[0]?.subject).toBe('Nueva consulta de / New inquiry from Lucía Deploy');
      expect(mails[0]?.text).toContain('Nombre / Name: Lucía Deploy');
      expect(mails[0]?.text).toContain('Idioma / Language: Español');
      expect(mails[0]?.text).toContain('Mensaje / Message:');
    });

    it("the saved-searches function, from what was uploaded, confirms a search in the visitor's language", async () => {
      const alerts = await hosted.another(
        {},
        'saved-searches',
        writeUploaded(uploads.get('saved-searches') as UploadedFunction),
      );
      for (const [i, lang] of (['es', 'en'] as const).entries()) {
        const email = `deploy.alert.${lang}@example.com`;
        const res = await fetch(alerts.url, {
          method: 'POST',
          headers: { 'Content-Type': 'application/json', ...clientHeaders(`10.9.1.${i + 1}`) },
          body: JSON.stringify({
            action: 'subscribe',
            email,
            filters: { city: 'Quito' },
            frequency: 'daily',
            lang,
            idempotencyKey: `deploy-alert-${process.pid}-${lang}`,
          }),
        });
        expect(res.status, await res.clone().text()).toBe(200);
      }
      await alerts.drain();
      const subject = (to: string) => hosted.api.sent.find((m) => m.to.includes(to))?.subject;
      // each sent right after its request, in the background: wait for both
      await until(
        () => subject('deploy.alert.es@example.com') && subject('deploy.alert.en@example.com'),
        30_000,
        'both confirmations',
      );
      expect(subject('deploy.alert.es@example.com')).toBe('Confirma tu alerta de propiedades');
      expect(subject('deploy.alert.en@example.com')).toBe('Confirm your property alert');
    });
  });
});
