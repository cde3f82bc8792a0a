import { describe, expect, it } from 'vitest';
import { safeLinkUrl, safeMediaUrl } from '../../core/protocol/safe-urls.ts';
import { normaliseApiUrl, resolveApiConfig } from './config.ts';

describe('configuration', () => {
  it('prefers the attribute, else the origin the script came from', () => {
    expect(resolveApiConfig({ apiUrl: 'https://abc.supabase.co/', apiKey: ' k ' })).toEqual({
      url: 'https://abc.supabase.co',
      key: 'k',
    });
    const fallback = resolveApiConfig({});
    expect(fallback.url).toBe(new URL(import.meta.url).origin);
    expect(fallback.key).toBeTruthy();
  });

  it('ignores API URLs that are not http(s)', () => {
    expect(normaliseApiUrl('javascript:alert(1)')).toBeUndefined();
    expect(normaliseApiUrl('ftp://x')).toBeUndefined();
    expect(normaliseApiUrl('   ')).toBeUndefined();
    expect(normaliseApiUrl('https://x.test/base/', 'https://page.test/')).toBe('https://x.test/base');
  });

  it('resolves data media against the API, never the host page, and only to http(s)', () => {
    expect(safeMediaUrl('/media/listings/a.svg', 'https://api.test')).toBe('https://api.test/media/listings/a.svg');
    expect(safeMediaUrl('https://cdn.test/a.jpg', 'https://api.test')).toBe('https://cdn.test/a.jpg');
    expect(safeMediaUrl('javascript:alert(1)', 'https://api.test')).toBeUndefined();
    expect(safeMediaUrl('data:image/svg+xml,<svg onload=alert(1)>', 'https://api.test')).toBeUndefined();
    expect(safeMediaUrl(42, 'https://api.test')).toBeUndefined();
    expect(safeMediaUrl('  ', 'https://api.test')).toBeUndefined();
  });

  it('keeps outbound data links only when absolute http(s)', () => {
    expect(safeLinkUrl('https://facebook.com/agent')).toBe('https://facebook.com/agent');
    expect(safeLinkUrl('facebook.com/agent')).toBeUndefined();
    expect(safeLinkUrl('javascript:alert(1)')).toBeUndefined();
    expect(safeLinkUrl(' JavaScript:alert(1)')).toBeUndefined();
  });
});
