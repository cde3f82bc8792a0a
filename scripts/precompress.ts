/**
 * The built files compressed ahead, beside each one (`x.js.br`, `x.js.gz`), at the highest levels:
 * a server then serves them as they are (server/http/compress.ts `precompressed`), where it would
 * otherwise compress each file for its first visitor, in every process it starts, after every deploy.
 * The files a server compresses are the ones it would: by its type and size (`worthCompressing`).
 * Source maps are left to the server: only a developer's tools ask for them.
 * docs/architecture.md, "Deadlines and fair shares".
 */
import { createHash } from 'node:crypto';
import { readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import {
  compressAhead,
  compressibleType,
  CODING_SUFFIX,
  worthCompressing,
  type Encoding,
} from '../server/http/compress.ts';
import { contentType } from '../server/http/static.ts';

const ENCODINGS = Object.keys(CODING_SUFFIX) as Encoding[];
const SUFFIXES = new Set(Object.values(CODING_SUFFIX));

/** The file a compressed file was made of, or undefined for a file that is not one. */
const originalOf = (file: string) => {
  const suffix = [...SUFFIXES].find((s) => file.endsWith(s));
  return suffix ? file.slice(0, -suffix.length) : undefined;
};
const isSidecar = (file: string) => originalOf(file) !== undefined;

/**
 * Writes the compressed files of every file under `dirs` that a server would compress, and removes
 * those left from files that are gone. Returns how many files were compressed.
 */
export async function precompressTree(dirs: string[]): Promise<number> {
  const all = (await Promise.all(dirs.map((dir) => readdir(dir, { recursive: true, withFileTypes: true }))))
    .flat()
    .filter((d) => d.isFile())
    .map((d) => join(d.parentPath, d.name));
  const present = new Set(all);
  // a sidecar whose file is gone (a chunk renamed by a rebuild that did not empty its folder)
  await Promise.all(
    all.filter((f) => isSidecar(f) && !present.has(originalOf(f) as string)).map((f) => rm(f, { force: true })),
  );
  // read only what a server could compress (not the videos and photos)
  const bodies = await Promise.all(
    all
      .filter((f) => !isSidecar(f) && !f.endsWith('.map') && compressibleType(contentType(f)))
      .map(async (file) => ({ file, body: await readFile(file) })),
  );
  const wanted = bodies.filter(({ file, body }) => worthCompressing(contentType(file), body.length));
  // the same bytes compressed once (the test build's chunks are mostly the bundle's own)
  const made = new Map<string, Promise<Buffer>>();
  const ahead = (body: Buffer, encoding: Encoding) => {
    const key = `${encoding}:${createHash('sha256').update(body).digest('base64')}`;
    let bytes = made.get(key);
    if (!bytes) made.set(key, (bytes = compressAhead(body, encoding)));
    return bytes;
  };
  // libuv's threads do the compressing, as many at a time as its pool has: the largest first, so
  // that the last to finish is not a large one begun at the end
  wanted.sort((a, b) => b.body.length - a.body.length);
  await Promise.all(
    wanted.flatMap(({ file, body }) =>
      ENCODINGS.map(async (encoding) => writeFile(file + CODING_SUFFIX[encoding], await ahead(body, encoding))),
    ),
  );
  return wanted.length;
}
