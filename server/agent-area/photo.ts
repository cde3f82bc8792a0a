/**
 * An agent's photo, uploaded from her area (docs/agent-area.md "Profile"): `POST /agent/photo`
 * with her session's token and the image's bytes. The bytes are checked to be an image of a size a
 * face can be seen in, made in the listing photos' sizes by the same code (server/import/photos.ts:
 * turned upright, metadata dropped, stored by the hash of its content where the listing photos
 * are), and the address is written to her profile, in the trail as hers. Ten a hour at most (her
 * trail counts them). Her profile's other fields go through the data API (update_my_profile); the
 * photo comes here because only our server makes images.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { TransactionalSql } from '../../core/functions/sql.ts';
import { bearerToken, verifyAccessToken } from '../stand-in/auth/handler.ts';
import { readBody } from '../http/body.ts';
import { makePhoto, PhotoError, type PhotoStore } from '../import/photos.ts';

/** The largest upload: a phone's photo is 2-6 MB. */
const AGENT_PHOTO_MAX_BYTES = 10 * 1024 * 1024;
/** The smallest side a profile photo may have, in pixels. */
const AGENT_PHOTO_MIN_SIDE = 200;
/** Photos an agent may upload an hour. */
const AGENT_PHOTOS_PER_HOUR = 10;

export interface AgentPhotoOptions {
  sql: TransactionalSql;
  secret: () => Promise<Uint8Array>;
  store: () => PhotoStore;
}

function send(
  res: ServerResponse,
  status: number,
  body: Record<string, unknown>,
  headers: Record<string, string> = {},
): void {
  res
    .writeHead(status, { 'Content-Type': 'application/json; charset=utf-8', 'Cache-Control': 'no-store', ...headers })
    .end(JSON.stringify(body));
}

export function createAgentPhotoHandler(options: AgentPhotoOptions) {
  return async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    if (req.method !== 'POST')
      return send(res, 405, { error: 'method_not_allowed', message: 'POST the photo.' }, { Allow: 'POST' });
    const bearer = bearerToken(req);
    const claims = bearer ? await verifyAccessToken(await options.secret(), bearer) : undefined;
    if (!claims?.sub || claims.role !== 'authenticated') {
      req.resume();
      return send(res, 401, { error: 'not_signed_in', message: 'Sign in again.' });
    }
    const [me] = await options.sql.query<{ id: string; recent: number }>(
      `select a.id::text as id,
              (select count(*)::int from public.agent_events e where e.agent_id = a.id and e.at > internal.now() - interval '1 hour'
                  and 'picture' = any (pg_catalog.string_to_array(e.what, ','))) as recent
         from public.agents a where a.user_id = $1::uuid and a.is_ours`,
      [claims.sub],
    );
    if (!me) {
      req.resume();
      return send(res, 403, { error: 'not_an_agent', message: 'Only an agent of ours has a photo.' });
    }
    if (me.recent >= AGENT_PHOTOS_PER_HOUR) {
      req.resume();
      return send(res, 429, { error: 'too_many', message: 'Too many photos this hour.' }, { 'Retry-After': '600' });
    }
    if (!/^image\//i.test(req.headers['content-type'] ?? '')) {
      req.resume();
      return send(res, 415, { error: 'not_an_image', message: 'Send the photo as an image.' });
    }
    const body = await readBody(req, AGENT_PHOTO_MAX_BYTES);
    if (body === 'too-large')
      return send(
        res,
        413,
        { error: 'too_large', message: `The photo is larger than ${AGENT_PHOTO_MAX_BYTES / 1024 / 1024} MB.` },
        { Connection: 'close' },
      );
    let made;
    try {
      made = await makePhoto(body, options.store());
    } catch (error) {
      if (error instanceof PhotoError)
        return send(res, 400, { error: 'not_an_image', message: 'This file is not a photo we can read.' });
      throw error;
    }
    if (Math.min(made.width, made.height) < AGENT_PHOTO_MIN_SIDE)
      return send(res, 400, {
        error: 'too_small',
        message: `The photo must be at least ${AGENT_PHOTO_MIN_SIDE} pixels on each side.`,
      });
    const picture = options.store().url(made.hash);
    // written as hers: the trail reads who from the claims, as it does for the data API
    await options.sql.transaction(async (tx) => {
      await tx.query("select set_config('request.jwt.claims', $1, true)", [
        JSON.stringify({ sub: claims.sub, role: 'authenticated' }),
      ]);
      await tx.query('update public.agents set picture = $2 where id = $1::bigint', [me.id, picture]);
    });
    return send(res, 200, { picture, width: made.width, height: made.height });
  };
}
