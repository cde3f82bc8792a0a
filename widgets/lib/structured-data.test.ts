import { afterEach, describe, expect, it } from 'vitest';
import * as builders from '../../core/protocol/structured-data.ts';
import { writeStructuredData } from './structured-data.ts';

describe('structured data', () => {
  afterEach(() => {
    document.body.innerHTML = '';
  });

  it('writes one script into the host, updates it, and removes it', () => {
    const host = document.createElement('div');
    document.body.append(host);
    writeStructuredData(host, { a: 1 }, builders);
    writeStructuredData(host, { a: 2 }, builders);
    const scripts = host.querySelectorAll('script[type="application/ld+json"]');
    expect(scripts).toHaveLength(1);
    expect(JSON.parse(scripts[0]?.textContent ?? '')).toEqual({ a: 2 });
    writeStructuredData(host, null);
    expect(host.querySelector('script')).toBeNull();
  });
});
