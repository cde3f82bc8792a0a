/**
 * The settings `npm start` reads from the environment: an empty value means "not set", a value
 * that cannot be right stops the start with a message naming the variable.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError } from '../core/functions/env.ts';
import { loadConfig, mapTilesNotice } from './config.ts';

const root = resolve(import.meta.dirname, '..');

describe('loadConfig', () => {
  it('applies the defaults when nothing is set, and when a variable is set to ""', () => {
    for (const env of [{}, { INQUIRY_RATE_LIMIT: '', PORT: '', SMTP_URL: '', ALLOWED_ORIGINS: '', LOG_REQUESTS: '' }]) {
      const c = loadConfig(env, [], root);
      expect(c.port).toBe(8080);
      expect(c.bundlePort).toBe(8081);
      expect(c.inquiry.rateLimit).toEqual({ max: 5, windowSeconds: 60 });
      expect(c.inquiry.allowedOrigins).toBe('*');
      expect(c.mail.smtpUrl).toBeUndefined();
      expect(c.mail.siteUrl).toBe('http://localhost:8080');
      expect(c.logRequests).toBe(true);
    }
  });

  it('reads valid values', () => {
    const c = loadConfig(
      {
        PORT: '9000',
        BUNDLE_PORT: 'off',
        INQUIRY_RATE_LIMIT: '20',
        ALLOWED_ORIGINS: 'https://a.example, https://b.example/',
        SMTP_URL: 'smtp://u:p@mail.example:587',
        SITE_URL: 'https://expecuador.example/',
        TRUST_PROXY: '1',
        LOG_REQUESTS: '0',
        TEAM_INBOX: 'leads@expecuador.example',
        SMTP_FROM: '"eXp" <no-reply@expecuador.example>',
      },
      [],
      root,
    );
    expect(c).toMatchObject({ port: 9000, bundlePort: undefined, trustProxy: { hops: 1 }, logRequests: false });
    expect(c.inquiry.rateLimit.max).toBe(20);
    expect(c.inquiry.allowedOrigins).toEqual(['https://a.example', 'https://b.example']);
    expect(c.inquiry.teamInbox).toBe('leads@expecuador.example');
    expect(c.mail).toEqual({
      smtpUrl: 'smtp://u:p@mail.example:587',
      api: undefined,
      from: '"eXp" <no-reply@expecuador.example>',
      siteUrl: 'https://expecuador.example',
    });
    // (our own server may use port 587: only a hosted function may not)
    expect(
      loadConfig({ MAIL_API_URL: 'https://api.resend.com/emails', MAIL_API_KEY: 're_123' }, [], root).mail.api,
    ).toEqual({
      url: 'https://api.resend.com/emails',
      key: 're_123',
    });
  });

  it("reads the public pool's size and each client's share of it", () => {
    expect(loadConfig({}, [], root).database).toMatchObject({
      poolSize: 10,
      shares: { concurrent: 3, burstMs: 15_000, refillPerSecond: 500 },
    });
    const c = loadConfig(
      { DB_POOL_SIZE: '40', CLIENT_CONCURRENCY: '5', CLIENT_DB_BURST_SECONDS: '60', CLIENT_DB_SHARE_PERCENT: '200' },
      [],
      root,
    );
    expect(c.database).toMatchObject({
      poolSize: 40,
      shares: { concurrent: 5, burstMs: 60_000, refillPerSecond: 2000 },
    });
    // --postgres chose the embedded PostgreSQL when it was not the default; anything else is refused
    expect(() => loadConfig({}, ['--postgres'], root)).not.toThrow();
    expect(() => loadConfig({}, ['--pglite'], root)).toThrow(/unknown argument --pglite/);
  });

  const bad: Array<[Record<string, string>, RegExp]> = [
    [{ INQUIRY_RATE_LIMIT: 'abc' }, /INQUIRY_RATE_LIMIT must be a whole number from 1 to 1000000, not "abc"/],
    [{ INQUIRY_RATE_LIMIT: '0' }, /INQUIRY_RATE_LIMIT/],
    [{ INQUIRY_RATE_LIMIT: '2.5' }, /INQUIRY_RATE_LIMIT/],
    [{ PORT: '70000' }, /PORT must be a whole number from 0 to 65535/],
    [{ PORT: '80a' }, /PORT/],
    [{ SEED_LISTINGS: 'many' }, /SEED_LISTINGS/],
    [{ SMTP_URL: 'mail.example.com' }, /SMTP_URL must be a smtp or smtps URL/],
    [{ MAIL_API_URL: 'http://api.resend.com/emails', MAIL_API_KEY: 'k' }, /MAIL_API_URL must be https/],
    [{ MAIL_API_URL: 'https://api.resend.com/emails' }, /MAIL_API_URL needs MAIL_API_KEY/],
    [{ MAIL_API_KEY: 're_1' }, /MAIL_API_KEY needs MAIL_API_URL/],
    [
      { MAIL_API_URL: 'https://api.resend.com/emails', MAIL_API_KEY: 'k', SMTP_URL: 'smtps://u:p@mail.example' },
      /SMTP_URL and MAIL_API_URL exclude each other/,
    ],
    [{ DATABASE_URL: 'mysql://x' }, /DATABASE_URL must be a postgres or postgresql URL/],
    [{ ALLOWED_ORIGINS: 'example.com' }, /ALLOWED_ORIGINS must be \* or a comma-separated list of origins/],
    [{ ALLOWED_ORIGINS: 'https://a.example/path' }, /ALLOWED_ORIGINS/],
    [{ TEAM_INBOX: 'team' }, /TEAM_INBOX must be an e-mail address/],
    [{ TRUST_PROXY: 'maybe' }, /TRUST_PROXY must be 0, the number of proxies of yours in front \(1 to 16\)/],
    [
      { IMAGE_HOSTS: 'https://cdn.example.com/photos, ok.example.com' },
      /IMAGE_HOSTS must be a comma list of host names .* not "https:\/\/cdn.example.com\/photos"/,
    ],
    [{ SITE_URL: 'expecuador.example' }, /SITE_URL must be a http or https URL/],
    [{ IMPORT_SOURCES: 'no-such-sources.json' }, /IMPORT_SOURCES .*no-such-sources.json: no such file/],
    [{ DB_POOL_SIZE: '1' }, /DB_POOL_SIZE must be a whole number from 2 to 500/],
    [{ CLIENT_CONCURRENCY: 'all' }, /CLIENT_CONCURRENCY/],
    [{ CLIENT_DB_BURST_SECONDS: '0' }, /CLIENT_DB_BURST_SECONDS/],
    [{ CLIENT_DB_SHARE_PERCENT: '-5' }, /CLIENT_DB_SHARE_PERCENT/],
    [
      { MAP_TILES_URL: 'http://tiles.example.com/{z}/{x}/{y}.png', MAP_TILES_ATTRIBUTION: 'Example' },
      /MAP_TILES_URL must be an https URL template/,
    ],
    [
      { MAP_TILES_URL: 'https://tiles.example.com/tile.png', MAP_TILES_ATTRIBUTION: 'Example' },
      /MAP_TILES_URL must be a URL template with \{z\}, \{x\} and \{y\}/,
    ],
    [
      { MAP_TILES_URL: 'https://{s}.tiles.example.com/{z}/{x}/{y}.png', MAP_TILES_ATTRIBUTION: 'Example' },
      /MAP_TILES_URL has placeholders OpenLayers does not fill: \{s\}/,
    ],
    [{ MAP_TILES_URL: 'https://tiles.example.com/{z}/{x}/{y}.png' }, /MAP_TILES_URL needs MAP_TILES_ATTRIBUTION/],
    [{ MAP_TILES_ATTRIBUTION: 'Example' }, /MAP_TILES_ATTRIBUTION needs MAP_TILES_URL/],
    [
      {
        MAP_TILES_URL: 'https://tiles.example.com/{z}/{x}/{y}.png',
        MAP_TILES_ATTRIBUTION: 'Example<script>alert(1)</script>',
      },
      /MAP_TILES_ATTRIBUTION must be text and links/,
    ],
  ];
  it.each(bad)('refuses %j', (env, message) => {
    expect(() => loadConfig(env, [], root)).toThrow(ConfigError);
    expect(() => loadConfig(env, [], root)).toThrow(message);
  });

  it("reads the maps' tile provider (MAP_TILES_URL, MAP_TILES_ATTRIBUTION); without one, npm start says in production that OpenStreetMap's tiles are for development", () => {
    const url = 'https://api.maptiler.com/maps/streets-v2/256/{z}/{x}/{y}.png?key=abc123';
    const attribution =
      '&copy; <a href="https://www.maptiler.com/copyright/">MapTiler</a> &copy; <a href="https://www.openstreetmap.org/copyright">OpenStreetMap contributors</a>';
    const c = loadConfig({ MAP_TILES_URL: url, MAP_TILES_ATTRIBUTION: attribution }, [], root);
    expect(c.mapTiles).toEqual({ url, attribution });
    expect(mapTilesNotice(c, 'production')).toBeUndefined();
    const plain = loadConfig({}, [], root);
    expect(plain.mapTiles).toBeUndefined();
    expect(mapTilesNotice(plain, 'production')).toMatch(
      /OpenStreetMap's own tiles .* for development only.* MAP_TILES_URL and MAP_TILES_ATTRIBUTION/,
    );
    expect(mapTilesNotice(plain, 'development')).toBeUndefined();
    // the provider's key is never in a message
    try {
      loadConfig({ MAP_TILES_URL: 'http://tiles.example.com/{z}/{x}/{y}.png?key=s3cret' }, [], root);
      expect.unreachable();
    } catch (error) {
      expect((error as ConfigError).problems).toHaveLength(2);
      expect((error as Error).message).not.toContain('s3cret');
    }
  });

  it('reads the import schedule (IMPORT_SOURCES): each source checked, its token from the environment, never from the file', () => {
    const dir = mkdtempSync(join(tmpdir(), 'exp-sources-'));
    const file = join(dir, 'sources.json');
    writeFileSync(
      file,
      JSON.stringify([
        {
          kind: 'reso',
          location: 'https://api.mls.example/odata',
          token: 'env:MLS_TOKEN',
          everyMinutes: 15,
          fullEveryHours: 12,
        },
        {
          kind: 'kyero',
          location: 'https://crm.example/kyero.xml',
          everyMinutes: 360,
          photoHosts: ['photos.crm.example'],
        },
      ]),
    );
    const c = loadConfig({ IMPORT_SOURCES: file, MLS_TOKEN: 's3cret' }, [], root);
    expect(c.importSchedule.map((s) => [s.source.name, s.source.token, s.everyMinutes, s.fullEveryHours])).toEqual([
      ['reso:api.mls.example', 's3cret', 15, 12],
      ['kyero:crm.example', undefined, 360, 24],
    ]);
    expect(() => loadConfig({ IMPORT_SOURCES: file }, [], root)).toThrow(
      /source 1: the token's variable MLS_TOKEN is not set/,
    );
    for (const [content, message] of [
      ['{"kind":"csv"}', /a JSON array of sources/],
      ['not json', /not JSON/],
      [
        '[{"kind":"csv","location":"a.csv","everyMinutes":0}]',
        /source 1: everyMinutes from 0.1 \(6 seconds\) to 10080/,
      ],
      [
        '[{"kind":"csv","location":"a.csv"},{"kind":"csv","location":"b.csv","name":"csv:a.csv"}]',
        /two sources are called "csv:a.csv"/,
      ],
      ['[{"kind":"reso","location":"a.json"}]', /source 1: reso: "a.json" is not a service URL/],
    ] as const) {
      writeFileSync(file, content);
      expect(() => loadConfig({ IMPORT_SOURCES: file }, [], root), content).toThrow(message);
    }
  });

  it('names every bad variable at once, and never prints a password', () => {
    try {
      loadConfig({ PORT: 'x', INQUIRY_RATE_LIMIT: 'y', SMTP_URL: 'ftp://user:secret@host' }, [], root);
      expect.unreachable();
    } catch (error) {
      expect((error as ConfigError).problems).toHaveLength(3);
      expect((error as Error).message).not.toContain('secret');
    }
  });

  it('stops npm start with the message and exit code 2', () => {
    const r = spawnSync(process.execPath, ['--import', 'tsx', 'server/main.ts'], {
      cwd: root,
      env: { ...process.env, INQUIRY_RATE_LIMIT: 'abc', SKIP_BUILD: '1', PORT: '0' },
      encoding: 'utf8',
      timeout: 30_000,
    });
    expect(r.status).toBe(2);
    expect(r.stderr).toContain('INQUIRY_RATE_LIMIT must be a whole number');
  });
});
