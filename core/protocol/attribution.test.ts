import { describe, expect, it } from 'vitest';
import { checkAttribution, checkedOrigin, pageAttribution } from './attribution.ts';

describe('attribution (core/protocol/attribution.ts)', () => {
  it("keeps the page's address without its query or fragment, and its UTM parameters apart", () => {
    expect(
      pageAttribution(
        'https://agente.example/casas/?email=a%40b.example&utm_source=google&utm_campaign=%20quito%20&gclid=x#top',
        'exp-property-search',
      ),
    ).toEqual({
      page: 'https://agente.example/casas/',
      element: 'exp-property-search',
      utm: { utm_source: 'google', utm_campaign: 'quito' },
    });
  });
  it('keeps of an Origin header only an http(s) origin as a browser writes it, of at most 300 characters', () => {
    expect(checkedOrigin('https://agente.example')).toBe('https://agente.example');
    expect(checkedOrigin('http://127.0.0.1:8080')).toBe('http://127.0.0.1:8080');
    for (const bad of [
      null,
      undefined,
      '',
      'null',
      'https://agente.example/',
      'https://agente.example/phish',
      'https://u:p@agente.example',
      'javascript:alert(1)',
      'file:///etc',
      `https://${'a'.repeat(300)}.example`,
      'HTTPS://AGENTE.EXAMPLE',
      'https://agente.example\r\nX: 1',
    ]) {
      expect(checkedOrigin(bad), String(bad)).toBeNull();
    }
  });
  it('takes what an element sends; refuses what none sends; keeps a page only on the origin the browser named', () => {
    const sent = { page: 'https://agente.example/casas/', element: 'exp-inquiry-form', utm: { utm_medium: 'email' } };
    expect(checkAttribution(undefined, null)).toEqual({ ok: true, value: null });
    expect(checkAttribution(sent, 'https://agente.example')).toEqual({ ok: true, value: sent });
    expect(checkAttribution(sent, 'https://elsewhere.example')).toEqual({ ok: true, value: { ...sent, page: '' } });
    expect(
      checkAttribution({ ...sent, page: 'https://agente.example/casas/?q=1#x' }, 'https://agente.example'),
    ).toEqual({ ok: true, value: sent });
    // no Origin (not a browser), or one that is not an origin: nothing vouches for the page, which is not kept
    expect(checkAttribution(sent, null)).toEqual({ ok: true, value: { ...sent, page: '' } });
    expect(checkAttribution(sent, 'https://agente.example/casas/')).toEqual({ ok: true, value: { ...sent, page: '' } });
    for (const bad of [
      'x',
      [],
      { element: 'div' },
      { ...sent, page: 'javascript:alert(1)' },
      { ...sent, page: 'https://u:p@agente.example/' },
      { ...sent, page: 'x'.repeat(501) },
      { ...sent, utm: { fbclid: 'x' } },
      { ...sent, utm: { utm_source: 'a\nb' } },
      { ...sent, utm: { utm_source: 'x'.repeat(201) } },
      { ...sent, utm: [] },
    ]) {
      expect(checkAttribution(bad, null), JSON.stringify(bad)).toEqual({ ok: false });
    }
  });
});
