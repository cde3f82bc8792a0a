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
import { describe, expect, it } from 'vitest';
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
    const api = createServer((req) => void held.push(req.url ?? ''));
    await new Promise<void>((resolve) => api.listen(0, '127.0.0.1', resolve));
    try {
      const config = { url: `http://127.0.0.1:${(api.address() as AddressInfo).port}`, key: 'anon' } as ApiConfig;
      // "Not before the deadline" is read by timers set before the calls, not by clocks: Node's timers
      // count from the event loop's time, taken when its turn began, so a timer's wait read with
      // performance.now() can come out up to a busy turn shorter than it was. A call's deadline starts
      // at its call or later, so a watch set before it, for less, fires before it on any machine.
      const settled = new Set<string>();
      const watch = (ms: number) => new Promise<string[]>((resolve) => setTimeout(() => resolve([...settled]), ms));
      const beforeDeadline = watch(DATA_DEADLINE_MS - 100);
      const beforeUploadDeadline = watch(uploadDeadline(PHOTO_BYTES) - 100);
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
      const [code, leads, upload, inquiry, alert] = await Promise.all([
        tracked('code', askForCode(config, 'ana@example.com')),
        tracked('leads', getMyLeads(config, { access_token: 'her-token' } as Session)),
        tracked('upload', uploadMyPhoto({ access_token: 'her-token' } as Session, photo, `${config.url}/agent/photo`)),
        tracked(
          'inquiry',
          sendInquiry(functions, {
            name: 'Ana',
            email: 'ana@example.com',
            message: 'Hola',
            idempotencyKey: 'k-1',
            lang: 'es',
            website: '',
          } as InquiryRequest),
        ),
        tracked('alert', requestAlerts(functions, { email: 'ana@example.com', lang: 'es', idempotencyKey: 'k-2' })),
      ]);
      expect(held.sort()).toEqual([
        '/agent/photo',
        '/auth/v1/otp',
        '/functions/v1/saved-searches',
        '/functions/v1/send-property-inquiry',
        '/rest/v1/rpc/my_leads',
      ]);
      // (she is told it failed, and may ask again)
      expect(code.outcome).toEqual({ value: 'failed' });
      expect(leads.outcome).toEqual({ error: expect.stringMatching(/^Error: leads: /) });
      // the forms say it failed (and keep what was typed: their tests)
      expect(inquiry.outcome).toEqual({ value: { ok: false, reason: 'failed' } });
      expect(alert.outcome).toEqual({ value: { ok: false, reason: 'failed' } });
      expect(upload.outcome).toEqual({ error: expect.stringMatching(/abort/i) });
      // none before the deadline (a loaded machine can only make each later); her photo's 2 s more (30 KB)
      expect(await beforeDeadline).toEqual([]);
      expect(uploadDeadline(photo.size)).toBe(DATA_DEADLINE_MS + 2000);
      expect(await beforeUploadDeadline).not.toContain('upload');
    } finally {
      api.closeAllConnections();
      await new Promise((resolve) => api.close(resolve));
    }
  }, 60_000);
});
