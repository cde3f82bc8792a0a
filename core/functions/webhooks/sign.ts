/**
 * Standard Webhooks signatures (docs/leads.md, "Verifying a delivery"): the secret is
 * `whsec_` and base64 of its key; a delivery is signed over `<webhook-id>.<webhook-timestamp>.<body>`
 * with HMAC-SHA256, sent as `webhook-signature: v1,<base64>`. Web Crypto only: the same code runs
 * in Node and Deno. Checked against the `standardwebhooks` package by the tests.
 */

const encoder = new TextEncoder();

function fromBase64(text: string): Uint8Array<ArrayBuffer> {
  const binary = atob(text);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

function toBase64(bytes: Uint8Array): string {
  let binary = '';
  for (const b of bytes) binary += String.fromCharCode(b);
  return btoa(binary);
}

/** A new endpoint's secret: 24 random bytes. */
export function newSecret(): string {
  return `whsec_${toBase64(crypto.getRandomValues(new Uint8Array(24)))}`;
}

export async function signature(secret: string, id: string, timestampSeconds: number, body: string): Promise<string> {
  if (!secret.startsWith('whsec_')) throw new Error('a webhook secret starts with whsec_');
  const key = await crypto.subtle.importKey(
    'raw',
    fromBase64(secret.slice('whsec_'.length)),
    { name: 'HMAC', hash: 'SHA-256' },
    false,
    ['sign'],
  );
  const mac = await crypto.subtle.sign('HMAC', key, encoder.encode(`${id}.${timestampSeconds}.${body}`));
  return `v1,${toBase64(new Uint8Array(mac))}`;
}
