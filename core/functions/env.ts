/**
 * Reading settings from the environment, for our server (process.env) and the deployed Deno
 * function (Deno.env) alike: an empty value counts as unset (the default applies), and a value
 * that cannot be right is collected and reported by its variable's name when `done()` is called,
 * so a server never starts with a limit of NaN or 0 because of a typo.
 */
import { parseProxyTrust, type ProxyTrust } from './client-address.ts';
import { DEFAULTS } from './defaults.ts';
import { mailApiUrlProblem } from './outbox/http-mail.ts';
import { EMAIL_PATTERN, RECORD_ID } from '../protocol/inquiry.ts';

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`The configuration is not valid:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

/** An address as it may be printed: a password in it (postgres://user:secret@host) shown as ***. */
export function redactUrl(url: string): string {
  return url.replace(/\/\/([^:@/]+):[^@/]*@/, '//$1:***@');
}

export function envReader(get: (name: string) => string | undefined) {
  const problems: string[] = [];
  const raw = (name: string): string | undefined => {
    const v = get(name);
    return v === undefined || v.trim() === '' ? undefined : v.trim();
  };
  const reader = {
    problems,
    string(name: string, fallback: string): string {
      return raw(name) ?? fallback;
    },
    optional(name: string): string | undefined {
      return raw(name);
    },
    int(name: string, fallback: number, range: { min?: number; max?: number } = {}): number {
      const v = raw(name);
      if (v === undefined) return fallback;
      const n = /^[-+]?\d+$/.test(v) ? Number(v) : NaN;
      const { min = -Infinity, max = Infinity } = range;
      if (!Number.isSafeInteger(n) || n < min || n > max) {
        const bounds =
          Number.isFinite(min) && Number.isFinite(max)
            ? ` from ${min} to ${max}`
            : Number.isFinite(min)
              ? ` of at least ${min}`
              : '';
        problems.push(`${name} must be a whole number${bounds}, not "${v}"`);
        return fallback;
      }
      return n;
    },
    bool(name: string, fallback: boolean): boolean {
      const v = raw(name)?.toLowerCase();
      if (v === undefined) return fallback;
      if (['1', 'true', 'yes', 'on'].includes(v)) return true;
      if (['0', 'false', 'no', 'off'].includes(v)) return false;
      problems.push(`${name} must be 1 or 0 (true or false), not "${raw(name)}"`);
      return fallback;
    },
    /** A base address (SITE_URL, SITE_API_URL): a URL of those protocols, without its trailing slashes. */
    baseUrl(name: string, protocols: string[] = ['http', 'https']): string | undefined {
      return this.url(name, protocols)?.replace(/\/+$/, '');
    },
    url(name: string, protocols: string[]): string | undefined {
      const v = raw(name);
      if (v === undefined) return undefined;
      try {
        const u = new URL(v);
        if (protocols.includes(u.protocol.replace(/:$/, ''))) return v;
      } catch {
        // reported below
      }
      problems.push(`${name} must be a ${protocols.join(' or ')} URL, not "${redactUrl(v)}"`);
      return undefined;
    },
    email(name: string, fallback: string, options: { displayName?: boolean } = {}): string {
      const v = raw(name);
      if (v === undefined) return fallback;
      const address = options.displayName ? (/<([^<>]+)>\s*$/.exec(v)?.[1] ?? v) : v;
      if (EMAIL_PATTERN.test(address.trim())) return v;
      problems.push(
        `${name} must be an e-mail address${options.displayName ? ' (optionally "Name" <address>)' : ''}, not "${v}"`,
      );
      return fallback;
    },
    origins(name: string, fallback: '*' | string[]): '*' | string[] {
      const v = raw(name);
      if (v === undefined) return fallback;
      if (v === '*') return '*';
      const list = v
        .split(',')
        .map((o) => o.trim())
        .filter(Boolean);
      const bad = list.filter((o) => {
        try {
          return new URL(o).origin !== o.replace(/\/$/, '');
        } catch {
          return true;
        }
      });
      if (bad.length || !list.length) {
        problems.push(`${name} must be * or a comma-separated list of origins such as https://example.com, not "${v}"`);
        return fallback;
      }
      return list.map((o) => o.replace(/\/$/, ''));
    },
    /** TRUST_PROXY: '0', a number of our proxies (1-16), or the header our edge sets (client-address.ts) */
    proxyTrust(name: string, fallback: ProxyTrust): ProxyTrust {
      const v = raw(name);
      if (v === undefined) return fallback;
      const trust = parseProxyTrust(v);
      if (trust) return trust;
      problems.push(
        `${name} must be 0, the number of proxies of yours in front (1 to 16), or the name of the header your edge sets with the client's address (such as cf-connecting-ip), not "${v}"`,
      );
      return fallback;
    },
    /** throws a ConfigError naming every variable that was wrong */
    done(): void {
      if (problems.length) throw new ConfigError(problems);
    },
  };
  return reader;
}

export type EnvReader = ReturnType<typeof envReader>;

/** What both functions read alike: the team's inbox, the origins that may call them, a rate limit and the salt. */
function readFunctionSettings(env: EnvReader, limit: { name: string; max: number; windowSeconds: number }) {
  return {
    teamInbox: env.email('TEAM_INBOX', DEFAULTS.teamInbox),
    allowedOrigins: env.origins('ALLOWED_ORIGINS', DEFAULTS.allowedOrigins),
    rateLimit: { max: env.int(limit.name, limit.max, { min: 1, max: 1_000_000 }), windowSeconds: limit.windowSeconds },
    // no built-in salt: unset, the database's random one is used (function-http.ts clientSalt)
    hashSalt: env.optional('INQUIRY_HASH_SALT'),
    leadAgentId: readLeadAgent(env),
  };
}

/** LEAD_AGENT_ID: the deployment's lead owner (docs/leads.md), an agent's id. */
function readLeadAgent(env: EnvReader): string | undefined {
  const v = env.optional('LEAD_AGENT_ID');
  if (v !== undefined && !RECORD_ID.test(v)) {
    env.problems.push(`LEAD_AGENT_ID must be an agent's id (digits), not "${v}"`);
    return undefined;
  }
  return v;
}

/** The inquiry function's settings, read the same way by our server and the Deno function. */
export function readInquirySettings(env: EnvReader) {
  return {
    ...readFunctionSettings(env, {
      name: 'INQUIRY_RATE_LIMIT',
      max: DEFAULTS.inquiryRateLimit,
      windowSeconds: DEFAULTS.inquiryRateWindowSeconds,
    }),
    // with a lead owner, does the listing's agent get a copy (docs/leads.md)
    copyListingAgent: env.bool('LEAD_COPY_LISTING_AGENT', false),
  };
}

/** The saved-searches function's settings (docs/decisions.md #23), read the same way by our server and the Deno function. */
export function readAlertSettings(env: EnvReader) {
  return {
    ...readFunctionSettings(env, {
      name: 'ALERT_RATE_LIMIT',
      max: DEFAULTS.alertRateLimit,
      windowSeconds: DEFAULTS.alertRateWindowSeconds,
    }),
    settleSeconds: env.int('ALERTS_SETTLE', DEFAULTS.alertsSettleSeconds, { min: 0, max: 3600 }),
  };
}

/** The port an SMTP URL connects to (nodemailer's defaults: 465 for smtps, 587 for smtp). */
function smtpPort(url: string): number {
  const u = new URL(url);
  return u.port ? Number(u.port) : u.protocol === 'smtps:' ? 465 : 587;
}

/**
 * The mail settings shared by our server and the Deno functions: SMTP (SMTP_URL), or a mail
 * provider's HTTP API (MAIL_API_URL and MAIL_API_KEY; outbox/http-mail.ts), not both. In a hosted
 * function (`hosted`), SMTP on port 25 or 587 is refused: Supabase's edge functions may not open
 * connections to them, so every mail would wait for ever.
 */
export function readMailSettings(env: EnvReader, fallbackSiteUrl: string, options: { hosted?: boolean } = {}) {
  const smtpUrl = env.url('SMTP_URL', ['smtp', 'smtps']);
  const apiUrl = env.optional('MAIL_API_URL');
  const apiKey = env.optional('MAIL_API_KEY');
  if (apiUrl) {
    const problem = mailApiUrlProblem(apiUrl);
    if (problem) env.problems.push(problem);
    if (!apiKey) env.problems.push("MAIL_API_URL needs MAIL_API_KEY (the provider's API key)");
    if (smtpUrl) env.problems.push('SMTP_URL and MAIL_API_URL exclude each other: pick one way to send mail');
  } else if (apiKey)
    env.problems.push(
      "MAIL_API_KEY needs MAIL_API_URL (the provider's send endpoint, such as https://api.resend.com/emails)",
    );
  if (options.hosted && smtpUrl && [25, 587].includes(smtpPort(smtpUrl))) {
    env.problems.push(
      `SMTP_URL connects to port ${smtpPort(smtpUrl)}, which a Supabase edge function may not open: use smtps:// on port 465, or a mail provider's HTTP API (MAIL_API_URL, MAIL_API_KEY)`,
    );
  }
  return {
    smtpUrl,
    api: apiUrl && apiKey && !mailApiUrlProblem(apiUrl) ? { url: apiUrl, key: apiKey } : undefined,
    from: env.email('SMTP_FROM', DEFAULTS.mailFrom, { displayName: true }),
    siteUrl: env.baseUrl('SITE_URL') ?? fallbackSiteUrl,
  };
}
