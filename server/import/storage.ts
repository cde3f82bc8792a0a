/**
 * Photos in Supabase Storage (docs/import.md, "Photos"): for a hosted project, whose pages and
 * elements read photos from the project, not from a server of ours. A public bucket (`media`
 * unless PHOTO_BUCKET says otherwise) holds `photos/<hash>/<width>.<avif|webp|jpg>`, each file
 * uploaded with the service role key and cached for a year (its name is its content's hash). No
 * server of ours answers there, so every size in every format is made during the import (the
 * store is `eager`). Written with Supabase's own client, @supabase/storage-js.
 */
import { StorageClient } from '@supabase/storage-js';
import { PHOTO_DEFAULT_WIDTH, PHOTO_LARGEST } from '../../core/protocol/photos.ts';
import type { PhotoStore } from './photos.ts';

export interface StorageSettings {
  /** the project's URL (SUPABASE_URL) */
  url: string;
  /** the service role key (SUPABASE_SERVICE_ROLE_KEY): uploads need it; never sent to a browser */
  serviceKey: string;
  /** the public bucket (PHOTO_BUCKET, default `media`) */
  bucket: string;
}

const LARGEST = PHOTO_LARGEST;
const LARGEST_FILE = 8 * 1024 * 1024;
const TYPES = ['image/jpeg', 'image/webp', 'image/avif'];

class StorageError extends Error {}

/** What went wrong, for the run's report: the status, and what to check when it is the key. */
function failed(error: Error & { status?: number; statusCode?: string }, what: string): StorageError {
  const status = Number(error.status ?? error.statusCode) || undefined;
  const hint =
    status === 401 || status === 403 ? " (is SUPABASE_SERVICE_ROLE_KEY the project's service role key?)" : '';
  return new StorageError(`Supabase Storage: ${what}: ${status ? `${status} ` : ''}${error.message}${hint}`);
}

export function supabasePhotoStore(settings: StorageSettings): PhotoStore {
  const base = settings.url.replace(/\/+$/, '');
  const client = new StorageClient(`${base}/storage/v1`, {
    apikey: settings.serviceKey,
    Authorization: `Bearer ${settings.serviceKey}`,
  });
  const files = client.from(settings.bucket);
  const path = (hash: string, name: string) => `photos/${hash}/${name}`;
  // the bucket, made public the first time a photo is stored (once per process)
  let bucket: Promise<void> | null = null;
  const ensureBucket = () =>
    (bucket ??= (async () => {
      const found = await client.getBucket(settings.bucket);
      if (found.error && ![400, 404].includes(Number((found.error as { status?: number }).status)))
        throw failed(found.error, `the bucket "${settings.bucket}"`);
      if (found.data) {
        if (!found.data.public)
          throw new StorageError(
            `the bucket "${settings.bucket}" is not public: the photos would not show (make it public, or name another with PHOTO_BUCKET)`,
          );
        return;
      }
      const made = await client.createBucket(settings.bucket, {
        public: true,
        allowedMimeTypes: TYPES,
        fileSizeLimit: LARGEST_FILE,
      });
      if (made.error) throw failed(made.error, `could not make the bucket "${settings.bucket}"`);
    })().catch((error: Error) => {
      bucket = null;
      throw error instanceof StorageError ? error : failed(error, 'the bucket');
    }));
  return {
    eager: true,
    url: (hash) =>
      `${base}/storage/v1/object/public/${encodeURIComponent(settings.bucket)}/${path(hash, `${PHOTO_DEFAULT_WIDTH}.jpg`)}`,
    async has(hash) {
      // the largest JPEG is uploaded last (a 404 is false; any other failure throws)
      const { data } = await files.exists(path(hash, `${LARGEST}.jpg`)).catch((error: Error) => {
        throw failed(error, `${hash}/${LARGEST}.jpg`);
      });
      return data;
    },
    async put(hash, list) {
      await ensureBucket();
      for (const f of list) {
        const { error } = await files.upload(path(hash, f.name), f.body, {
          contentType: f.type,
          cacheControl: '31536000',
          upsert: true,
        });
        if (error) throw failed(error, `${hash}/${f.name}`);
      }
    },
  };
}
