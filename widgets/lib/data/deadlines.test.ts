// @vitest-environment node
// (the calls over a real socket, with Node's fetch, to a server that never answers)
/**
 * Every call an element makes gives up at the elements' deadline (DATA_DEADLINE_MS in client.ts):
 * Auth's (her sign-in), an agent's calls with her session, and the forms' calls to the edge functions; her
 * photo's upload at a deadline of its own, which grows with the photo. A stalled phone
 * network otherwise left her list "Loading..." and a form "Sending..." for good.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Session } from '@supabase/auth-js';
import { describe, expect, it, vi } from 'vitest';
import type { ApiConfig } from '../config.ts';
import { askForCode, getMyLeads, uploadDeadline, uploadMyPhoto } from './agent-area.ts';
import { requestAlerts } from './alerts.ts';
import { DATA_DEADLINE_MS } from './client.ts';
import { functionsClient } from './functions.ts';
import { sendInquiry, type InquiryRequest } from './inquiry.ts';

const PHOTO_BYTES = 30_000;

describe('the deadline of every call', () => {
  it('gives up on her code, her leads, her photo, an inquiry and an alert whose answers never come, at the deadline and not before', async () => {
    // a data API that takes each request and never answers
    const held: string[] = [];
    let allHeld: () => void = () => {};
    const heldAll = new Promise<void>((resolve) => (allHeld = resolve));
    const api = createServer((req) => {
      held.push(req.url ?? '');
      if (held.length === 5) allHeld();
    });
    await new Promise<void>((resolve) => api.listen(0, '127.0.0.1', resolve));
    // the deadlines on a clock the test moves (timers only: the sockets stay real); a call given up
    // rejects within the abort's own turn (the Fetch standard's abort steps), so a turn of the event
    // loop after the clock has moved shows every call its deadline has ended
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const turn = () => new Promise((resolve) => setImmediate(resolve));
    try {
      const config = { url: `http://127.0.0.1:${(api.address() as AddressInfo).port}`, key: 'anon' } as ApiConfig;
      const settled = new Set<string>();
      const tracked = async <T>(name: string, call: Promise<T>) => {
        const outcome = await call.then(
          (value) => ({ value }),
          (error: unknown) => ({ error: String(error) }),
        );
        settled.add(name);
        return { outcome };
      };
      const functions = functionsClient(config);
      const photo = new Blob([new Uint8Array(PHOTO_BYTES)], { type: 'image/jpeg' });
      const code = tracked('code', askForCode(config, 'ana@example.com'));
      const leads = tracked('leads', getMyLeads(config, { access_token: 'her-token' } as Session));
      const upload = tracked(
        'upload',
        uploadMyPhoto({ access_token: 'her-token' } as Session, photo, `${config.url}/agent/photo`),
      );
      const inquiry = tracked(
        'inquiry',
        sendInquiry(functions, {
          name: 'Ana',
          email: 'ana@example.com',
          message: 'Hola',
          idempotencyKey: 'k-1',
          lang: 'es',
          website: '',
        } as InquiryRequest),
      );
      const alert = tracked(
        'alert',
        requestAlerts(functions, { email: 'ana@example.com', lang: 'es', idempotencyKey: 'k-2' }),
      );
      await heldAll;
      expect(held.sort()).toEqual([
        '/agent/photo',
        '/auth/v1/otp',
        '/functions/v1/saved-searches',
        '/functions/v1/send-property-inquiry',
        '/rest/v1/rpc/my_leads',
      ]);
      // none a moment before the deadline
      await vi.advanceTimersByTimeAsync(DATA_DEADLINE_MS - 10);
      await turn();
      expect([...settled]).toEqual([]);
      // at it, all but her photo's, which has 2 s more (30 KB)
      await vi.advanceTimersByTimeAsync(10);
      // (she is told it failed, and may ask again)
      expect((await code).outcome).toEqual({ value: 'failed' });
      expect((await leads).outcome).toEqual({ error: expect.stringMatching(/^Error: leads: /) });
      // the forms say it failed (and keep what was typed: their tests)
      expect((await inquiry).outcome).toEqual({ value: { ok: false, reason: 'failed' } });
      expect((await alert).outcome).toEqual({ value: { ok: false, reason: 'failed' } });
      expect(uploadDeadline(photo.size)).toBe(DATA_DEADLINE_MS + 2000);
      await vi.advanceTimersByTimeAsync(2000 - 10);
      await turn();
      expect(settled.has('upload')).toBe(false);
      await vi.advanceTimersByTimeAsync(10);
      expect((await upload).outcome).toEqual({ error: expect.stringMatching(/abort/i) });
    } finally {
      vi.useRealTimers();
      api.closeAllConnections();
      await new Promise((resolve) => api.close(resolve));
    }
  }, 60_000);
});
