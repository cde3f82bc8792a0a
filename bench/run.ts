/**
 * npm run bench [-- api abuse hosted startup map clusters places pages lighthouse inp weight alerts import functions valuation agent-area stages]: runs the benchmarks, writes
 * bench/results/<name>.json and refreshes the figures of those it ran in docs/benchmarks.md between
 * the bench markers (the other sections stay as they are).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { join, resolve } from 'node:path';
import { benchAbuse } from './abuse.ts';
import { benchAgentArea } from './agent-area.ts';
import { benchAlerts } from './alerts.ts';
import { benchApi } from './api.ts';
import { benchClusters } from './clusters.ts';
import { benchFunctions } from './functions.ts';
import { benchHosted } from './hosted.ts';
import { benchImport } from './import.ts';
import { benchInp } from './inp.ts';
import { benchLighthouse } from './lighthouse.ts';
import { benchMap } from './map.ts';
import { benchPages } from './pages.ts';
import { benchPlaces } from './places.ts';
import { benchStages } from './stages.ts';
import { benchStartup } from './startup.ts';
import { benchValuation } from './valuation.ts';
import { benchWeight } from './weight.ts';
import { BENCH_DOC, writeBenchmarks } from './report.ts';

const root = resolve(import.meta.dirname, '..');
const results = join(root, 'bench', 'results');

const benches: Record<string, () => Promise<Record<string, unknown>>> = {
  api: benchApi,
  abuse: benchAbuse,
  hosted: benchHosted,
  startup: benchStartup,
  map: benchMap,
  clusters: benchClusters,
  places: benchPlaces,
  pages: benchPages,
  lighthouse: benchLighthouse,
  inp: benchInp,
  weight: benchWeight,
  alerts: benchAlerts,
  import: benchImport,
  functions: benchFunctions,
  valuation: benchValuation,
  'agent-area': benchAgentArea,
  stages: benchStages,
};

async function main(): Promise<void> {
  mkdirSync(results, { recursive: true });
  const wanted = process.argv.slice(2).filter((a) => a in benches);
  const ran = wanted.length ? wanted : Object.keys(benches);
  for (const name of ran) {
    const started = Date.now();
    const result = { name, date: new Date().toISOString(), machine: machine(), ...(await benches[name]!()) };
    writeFileSync(join(results, `${name}.json`), JSON.stringify(result, null, 2) + '\n');
    console.log(
      `[bench] ${name} done in ${((Date.now() - started) / 1000).toFixed(0)} s -> bench/results/${name}.json`,
    );
  }
  writeBenchmarks(root, results, ran);
  console.log(`[bench] ${BENCH_DOC} figures updated`);
}

function machine(): Record<string, unknown> {
  return {
    cpus: os.cpus().length,
    cpu: os.cpus()[0]?.model,
    memoryGiB: Math.round(os.totalmem() / 2 ** 30),
    node: process.version,
  };
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
