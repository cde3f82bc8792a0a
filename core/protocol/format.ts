/**
 * Display rules of docs/product.md §5: dollars with en-US separators, map pills in K and M, areas in m²,
 * phone numbers normalised for WhatsApp and copying (docs/decisions.md #2).
 */

/**
 * A number as en-US writes it with at most `decimals` fraction digits ("1,234.5"), the same text as
 * `Intl.NumberFormat('en-US', { maximumFractionDigits })` (format.test.ts holds the two to one table).
 * Written out because the first Intl.NumberFormat of a page loads the browser's locale data: about
 * 12 ms of main thread on a phone before the first card can show.
 */
export function formatNumber(value: number, decimals = 0): string {
  if (!Number.isFinite(value) || Math.abs(value) >= 1e21)
    return new Intl.NumberFormat('en-US', { maximumFractionDigits: decimals }).format(value);
  // rounded half away from zero on the number's shortest decimal text, as Intl does (92.55 -> 92.6)
  const shortest = String(Math.abs(value));
  const [whole = '0', fraction = ''] = (shortest.includes('e') ? Math.abs(value).toFixed(20) : shortest).split('.');
  let kept = whole + fraction.slice(0, decimals).padEnd(decimals, '0');
  if ((fraction.charCodeAt(decimals) || 48) >= 53) kept = String(BigInt(kept) + 1n).padStart(kept.length, '0');
  const intPart = kept.slice(0, kept.length - decimals).replace(/^0+(?=\d)/, '') || '0';
  const digits = kept.slice(kept.length - decimals).replace(/0+$/, '');
  const text = intPart.replace(/\B(?=(\d{3})+$)/g, ',') + (digits ? `.${digits}` : '');
  return value < 0 || Object.is(value, -0) ? `-${text}` : text;
}

/** A price as data sends it (number or text such as "$ 250.000"); cards strip non-digits first. */
export function priceValue(value: unknown): number {
  if (typeof value === 'number') return Number.isFinite(value) && value > 0 ? value : 0;
  if (typeof value !== 'string') return 0;
  const digits = value.replace(/[^\d]/g, '');
  return digits ? Number(digits) : 0;
}

/** "$1,250,000" */
export function formatPrice(value: unknown): string {
  return `$${formatNumber(priceValue(value))}`;
}

/** An amount to the cent when it has cents ("$1,168.57"), else as a price ("$1,168"): a payment plan's cuotas. */
export function formatAmount(value: number): string {
  if (!(Math.round(value * 100) % 100)) return formatPrice(value);
  const text = formatNumber(value, 2);
  return `$${/\.\d$/.test(text) ? `${text}0` : text}`;
}

/** Map pills: "$950", "$85.5K", "$250K", "$1.3M", "$12.5M", "$150M" (one decimal below 100). */
export function formatPricePill(value: unknown): string {
  const n = priceValue(value);
  const short = (v: number, unit: string) =>
    `$${v < 100 ? String(Math.round(v * 10) / 10) : String(Math.round(v))}${unit}`;
  if (n >= 1_000_000) return short(n / 1_000_000, 'M');
  if (n >= 1_000) return short(n / 1_000, 'K');
  return `$${Math.round(n)}`;
}

/** "1,200 m²" */
export function formatArea(value: number): string {
  return `${formatNumber(value, 1)} m²`;
}

export function formatCount(value: number): string {
  return formatNumber(value, 1);
}

const DEFAULT_PHONE_COUNTRY_CODE = '593';

/**
 * Phone for WhatsApp and copying: digits only; a leading 0 (national format) becomes the country
 * calling code, 593 (Ecuador) by default. Empty when there are no digits.
 */
export function normalisePhone(phone: string | null | undefined, countryCode = DEFAULT_PHONE_COUNTRY_CODE): string {
  const digits = (phone ?? '').replace(/\D/g, '');
  if (!digits) return '';
  return digits.startsWith('0') ? countryCode.replace(/\D/g, '') + digits.slice(1) : digits;
}

/** The WhatsApp chat with a phone number (normalisePhone), or '' when there is none. */
export function whatsappHref(phone: string | null | undefined, countryCode = DEFAULT_PHONE_COUNTRY_CODE): string {
  const number = normalisePhone(phone, countryCode);
  return number ? `https://wa.me/${number}` : '';
}

/** A tel: link for a phone number as written: "+593 2 600 1234" -> "tel:+59326001234". */
export function telHref(phone: string): string {
  return `tel:${phone.replace(/[^\d+]/g, '')}`;
}

/** A phone number as shown: it never breaks across lines (non-breaking spaces and hyphens). */
export function telText(phone: string): string {
  return phone.trim().replace(/\s+/g, '\u00a0').replace(/-/g, '\u2011');
}

/** Initials for a photo that is missing: "María Fernanda Andrade" -> "MA". */
export function initials(name: string): string {
  const words = name.trim().split(/\s+/).filter(Boolean);
  if (!words.length) return '?';
  const first = words[0]?.[0] ?? '';
  const last = words.length > 1 ? (words[words.length - 1]?.[0] ?? '') : '';
  return (first + last).toUpperCase();
}
