/**
 * The tokens of the links in the alert mails (confirm, manage, unsubscribe): 32 random bytes, sent
 * in base64url and kept only as their SHA-256. Made when a mail is composed, so the database never
 * holds a token that works; a stolen table gives nobody a link.
 */
import type { Sql } from '../sql.ts';

export type TokenPurpose = 'confirm' | 'manage' | 'unsubscribe';

/**
 * A link's token as the mails carry it (what newToken makes: 32 random bytes in base64url); the one
 * shape every link's page and function checks before asking the database.
 */
export const TOKEN = /^[A-Za-z0-9_-]{43}$/;

/** How long the links of an alert mail work (the confirmation link: until its request expires). */
const LINK_DAYS = 365;

export function newToken(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(32));
  let binary = '';
  for (const b of bytes) binary += String.fromCharCode(b);
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

export async function hashToken(token: string): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(token));
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, '0')).join('');
}

/** A new token for a search, kept hashed; its text goes into the mail being composed. */
export async function issueToken(
  sql: Sql,
  searchId: string,
  purpose: TokenPurpose,
  expiresAt: string | Date | null,
): Promise<string> {
  const token = newToken();
  await sql.query(
    `insert into internal.saved_search_tokens (token_hash, search_id, purpose, expires_at)
     values ($1, $2, $3, coalesce($4::timestamptz, internal.now() + make_interval(days => $5)))`,
    [
      await hashToken(token),
      searchId,
      purpose,
      expiresAt === null ? null : new Date(expiresAt).toISOString(),
      LINK_DAYS,
    ],
  );
  return token;
}
