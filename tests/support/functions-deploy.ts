/**
 * `supabase functions deploy --use-api` as an operator runs it (the real Supabase CLI from npm,
 * pinned), against a stand-in of Supabase's Management API in this process: the CLI walks each
 * function's imports from supabase/ and uploads the files it found (multipart, one request per
 * function), which the stand-in keeps. What it kept is what the platform would bundle: written
 * into an empty folder, it is all a function has (docs/deployment.md "The functions").
 */
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, realpathSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { supabaseCli } from '../../scripts/lazy-packages.ts';
import { spawnChild } from './child.ts';
import { DENO, DENO_FLAGS, IMPORT_MAP, denoEnv } from './deno-env.ts';

const root = resolve(import.meta.dirname, '../..');
const execFileAsync = promisify(execFile);
export const PROJECT_REF = 'expecuadorstandinabc';

export interface UploadedFunction {
  slug: string;
  /** the CLI's metadata: entrypoint_path, import_map_path, static_patterns, verify_jwt, name */
  metadata: { entrypoint_path: string; import_map_path?: string; verify_jwt?: boolean; name?: string };
  /** path (relative to the project) -> content */
  files: Map<string, Buffer>;
}

async function body(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  return Buffer.concat(chunks);
}

/** Runs the real CLI's deploy of every function against the stand-in; what each function uploaded. */
export async function deployWithCli(): Promise<{ uploads: Map<string, UploadedFunction>; output: string }> {
  const uploads = new Map<string, UploadedFunction>();
  const server = createServer((req, res) => {
    void (async () => {
      const url = new URL(req.url ?? '/', 'http://stand-in');
      const raw = await body(req);
      const send = (status: number, value: unknown) =>
        res.writeHead(status, { 'Content-Type': 'application/json' }).end(JSON.stringify(value));
      const deploy = new RegExp(`^/v1/projects/${PROJECT_REF}/functions/deploy$`).exec(url.pathname);
      if (deploy && req.method === 'POST') {
        const form = await new Response(new Uint8Array(raw), {
          headers: { 'content-type': String(req.headers['content-type']) },
        }).formData();
        const slug = url.searchParams.get('slug') ?? '';
        const files = new Map<string, Buffer>();
        for (const entry of form.getAll('file'))
          if (typeof entry !== 'string') files.set(entry.name, Buffer.from(await entry.arrayBuffer()));
        const metadata = JSON.parse(String(form.get('metadata'))) as UploadedFunction['metadata'];
        uploads.set(slug, { slug, metadata, files });
        return send(201, {
          id: `fn-${slug}`,
          slug,
          name: slug,
          version: 1,
          status: 'ACTIVE',
          created_at: Date.now(),
          updated_at: Date.now(),
          entrypoint_path: metadata.entrypoint_path,
          verify_jwt: metadata.verify_jwt,
        });
      }
      // the bulk update after bundling several functions: the functions as they now are
      if (url.pathname === `/v1/projects/${PROJECT_REF}/functions` && req.method === 'PUT') {
        const functions = JSON.parse(raw.toString('utf8') || '[]') as unknown[];
        return send(200, { functions });
      }
      if (url.pathname === `/v1/projects/${PROJECT_REF}/functions` && req.method === 'GET') return send(200, []);
      if (url.pathname === `/v1/projects/${PROJECT_REF}` && req.method === 'GET')
        return send(200, {
          id: PROJECT_REF,
          ref: PROJECT_REF,
          name: 'stand-in',
          status: 'ACTIVE_HEALTHY',
          region: 'sa-east-1',
          created_at: new Date().toISOString(),
        });
      send(404, { message: `the stand-in does not know ${req.method} ${url.pathname}` });
    })().catch((error: unknown) => res.writeHead(500).end(String(error)));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  const apiUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const home = mkdtempSync(join(tmpdir(), 'exp-cli-home-'));
  const profile = join(home, 'profile.json');
  writeFileSync(
    profile,
    JSON.stringify({
      name: 'stand-in',
      api_url: apiUrl,
      dashboard_url: `${apiUrl}/dashboard`,
      project_host: 'supabase.co',
    }),
  );
  try {
    const { output, exited, exitStatus } = spawnChild(
      supabaseCli(),
      ['functions', 'deploy', '--use-api', '--project-ref', PROJECT_REF, '--profile', profile, '--yes'],
      {
        cwd: root,
        env: {
          PATH: process.env.PATH ?? '',
          HOME: home,
          SUPABASE_ACCESS_TOKEN: `sbp_${'0'.repeat(40)}`,
          DO_NOT_TRACK: '1',
          SUPABASE_TELEMETRY_DISABLED: '1',
          NO_COLOR: '1',
          CI: '1',
        },
      },
    );
    await exited;
    if (exitStatus() !== 0)
      throw new Error(`supabase functions deploy exited ${exitStatus()}:\n${output().slice(-4000)}`);
    return { uploads, output: output() };
  } finally {
    server.close();
    server.closeAllConnections();
  }
}

/** Writes what a function uploaded into a fresh folder: all the platform has of it. */
export function writeUploaded(
  fn: UploadedFunction,
  dir = mkdtempSync(join(tmpdir(), `exp-deployed-${fn.slug}-`)),
): string {
  for (const [path, content] of fn.files) {
    const target = resolve(dir, path);
    if (!target.startsWith(dir + '/')) throw new Error(`an uploaded path leaves the project: ${path}`);
    mkdirSync(dirname(target), { recursive: true });
    writeFileSync(target, content);
  }
  return dir;
}

/** A function's module graph as Deno resolves it (`deno info`: code, types and JSON, without type-checking). */
export interface DenoGraph {
  /** the files it reads, from the folder it ran in, sorted */
  files: string[];
  /** the npm packages it loads (name@version), sorted */
  npm: string[];
  /** what could not be resolved or read: a file not there, an import without its extension */
  errors: string[];
}

/**
 * The module graph of a function's entrypoint, with an import map, in a folder: where the folder
 * holds only what was uploaded, every import the platform will follow, type-only ones included.
 * (The test runner's deno stage type-checks the same files in the project; docs/deployment.md.)
 */
export async function denoGraph(dir: string, entrypoint: string, importMap = IMPORT_MAP): Promise<DenoGraph> {
  // the flags of our other Deno runs, with the import map the deploy uploaded
  const flags = DENO_FLAGS.map((f) => (f.startsWith('--import-map=') ? `--import-map=${importMap}` : f));
  let stdout: string;
  try {
    ({ stdout } = await execFileAsync(DENO, ['info', '--json', ...flags, entrypoint], {
      cwd: dir,
      env: denoEnv(),
      maxBuffer: 64 * 1024 * 1024,
      timeout: 120_000,
    }));
  } catch (error) {
    const { stderr, message } = error as { stderr?: string; message: string };
    return { files: [], npm: [], errors: [`deno info failed: ${stderr || message}`] };
  }
  const graph = JSON.parse(stdout) as {
    modules: Array<{ kind?: string; specifier: string; local?: string; npmPackage?: string; error?: string }>;
  };
  const base = `${realpathSync(dir)}/`;
  const files: string[] = [];
  const npm: string[] = [];
  const errors: string[] = [];
  for (const m of graph.modules) {
    if (m.error) errors.push(m.error.replaceAll(pathToFileURL(base).href, ''));
    else if (m.kind === 'npm' && m.npmPackage) npm.push(m.npmPackage);
    else if (m.local?.startsWith(base)) files.push(m.local.slice(base.length));
    else errors.push(`outside the folder: ${m.specifier}`);
  }
  return { files: files.sort(), npm: npm.sort(), errors };
}
