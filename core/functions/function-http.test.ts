import { describe, expect, it, vi } from 'vitest';
import { refusedField, serveActions, type ActionService, type Outcome } from './function-http.ts';

const post = (body: unknown) =>
  new Request('https://example.test/functions/v1/x', {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: 'https://partner.example' },
    body: JSON.stringify(body),
  });

function service(over: Partial<ActionService<'ask' | 'open'>> = {}): ActionService<'ask' | 'open'> {
  return {
    tag: 'test',
    allowedOrigins: ['https://partner.example'],
    maxBytes: 1024,
    actions: ['ask', 'open'],
    unavailableMessage: 'Nothing was changed right now. Please try again.',
    ...over,
  };
}

describe('serveActions: the shell of the functions whose calls are actions (alerts, privacy, visits)', () => {
  it('refuses an action it does not know, and one not said when it has no default, naming the field', async () => {
    const act = vi.fn(async (): Promise<Outcome> => ({ status: 200, body: { ok: true } }));
    const handle = serveActions(service(), act);
    for (const body of [{ action: 'drop' }, {}, { action: 1 }]) {
      const res = await handle(post(body), undefined);
      expect(res.status).toBe(400);
      expect(await res.json()).toEqual({
        error: 'validation',
        message: 'Some fields are not valid: action (invalid).',
        fields: { action: 'invalid' },
      });
      expect(res.headers.get('access-control-allow-origin')).toBe('https://partner.example');
    }
    expect(act).not.toHaveBeenCalled();
  });

  it("gives the action, the body and the caller's context to the work, and answers its outcome", async () => {
    const handle = serveActions(
      service({ defaultAction: 'ask' }),
      async (action, body, _r, context: { who: string }) => ({
        status: 200,
        body: { action, said: body.said, who: context.who },
      }),
    );
    const res = await handle(post({ said: 'hola' }), { who: 'client-1' });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ action: 'ask', said: 'hola', who: 'client-1' });
  });

  it("a refusal for now waits the outcome's own time, else the service's; a queued mail is told once", async () => {
    const onQueued = vi.fn();
    const outcomes: Outcome[] = [
      { status: 429, body: { error: 'rate_limited' }, retryAfter: 3600 },
      { status: 429, body: { error: 'rate_limited' } },
      { status: 200, body: { ok: true }, queued: true },
    ];
    const handle = serveActions(service({ retryAfter: 60, onQueued }), async () => outcomes.shift()!);
    expect((await handle(post({ action: 'ask' }), undefined)).headers.get('retry-after')).toBe('3600');
    expect((await handle(post({ action: 'ask' }), undefined)).headers.get('retry-after')).toBe('60');
    const done = await handle(post({ action: 'open' }), undefined);
    expect(done.headers.get('retry-after')).toBeNull();
    expect(onQueued).toHaveBeenCalledTimes(1);
  });

  it('work that fails is answered 503 with when to try again; a database away is logged as such, without its error', async () => {
    const log = vi.spyOn(console, 'error').mockImplementation(() => {});
    try {
      const away = new Error('connect ECONNREFUSED 127.0.0.1:5432 password=secret');
      const handle = serveActions(service({ isUnavailable: (e) => e === away }), async (action) => {
        throw action === 'ask' ? away : new Error('a bug');
      });
      const res = await handle(post({ action: 'ask' }), undefined);
      expect(res.status).toBe(503);
      expect(res.headers.get('retry-after')).toBe('10');
      expect(await res.json()).toEqual({
        error: 'unavailable',
        message: 'Nothing was changed right now. Please try again.',
      });
      expect(log).toHaveBeenLastCalledWith('[test]', 'database unavailable');
      await handle(post({ action: 'open' }), undefined);
      expect(log.mock.lastCall?.[1]).toBeInstanceOf(Error);
    } finally {
      log.mockRestore();
    }
  });

  it('one field refused says why in its message and `invalid` in its fields', () => {
    expect(refusedField('leadAgentId', 'not one of our agents')).toEqual({
      status: 400,
      body: {
        error: 'validation',
        message: 'Some fields are not valid: leadAgentId (not one of our agents).',
        fields: { leadAgentId: 'invalid' },
      },
    });
  });
});
