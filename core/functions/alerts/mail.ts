/**
 * The mails of saved searches, composed when they are sent (the outbox, ../outbox/worker.ts), in
 * the subscriber's language, HTML and plain text:
 *  - 'alert-confirm' (ref: the search, or search:time for a resend): the confirmation link, the only
 *    mail an unconfirmed address gets. Dropped when the request is no longer pending. To an address
 *    that never confirmed a search it says nothing the sender wrote (the words, a city typed in, a
 *    place that is not ours): anyone may type any address, and the mail must not carry their text.
 *  - 'alert' (ref: the alert): the new listings and price drops (at most ALERT_ITEMS, the rest
 *    counted and linked), each linking to its page; manage and one-click unsubscribe links (RFC
 *    8058). Dropped when the search is no longer active: unsubscribing takes effect at once.
 *  - 'alert-lead' (ref: the search): the team hears of each newly confirmed search, in Spanish and English.
 *  - 'market-report' (ref: follow:YYYY-MM): a market follow's monthly report (./market-mail.ts).
 * The links' tokens are made here, kept hashed (./tokens.ts). Texts come from the locale files
 * (`mail.alerts`, `alerts`), given by the caller: our server reads the built ones, the Deno
 * function imports them. Everything from the data is escaped in the HTML.
 */
import { attributionLines } from '../outbox/attribution-lines.ts';
import { mailTexts } from '../outbox/bilingual.ts';
import type { Composer, MailMessage } from '../outbox/worker.ts';
import {
  describeAlert,
  describeSearch,
  frequencyLabel,
  type HomeFollow,
  type MarketFollow,
} from '../../protocol/alerts.ts';
import { filtersFromArgs, type FilterArgs } from '../../protocol/filters.ts';
import { searchPageQuery } from '../../protocol/filter-params.ts';
import { formatArea, formatCount, priceValue } from '../../protocol/format.ts';
import { escapeHtml } from '../../protocol/html.ts';
import { isKnownType, listingPrice, normaliseImages, roomTexts, typeLabel } from '../../protocol/listing.ts';
import { listingPagePath, localizedPath, marketPath } from '../../routes.ts';
import { translate, type Dict } from '../../translate.ts';
import type { Sql } from '../sql.ts';
import { issueToken } from './tokens.ts';
import { oneLine } from '../outbox/mail-header.ts';
import type { Lang } from '../../lang.ts';

export interface AlertMailOptions {
  from: string;
  /** the public site: links, and relative media paths of the data */
  siteUrl: string;
  /** the locale files (core/locales/{en,es}.json) */
  texts: (lang: Lang) => Dict;
  /** the right-hand side of Message-IDs */
  domain?: string;
  mediaBase?: string;
}

export type T = (key: string, params?: Record<string, unknown>) => string;

export const translator = (options: AlertMailOptions, lang: Lang): T => {
  const dict = options.texts(lang);
  return (key, params) => translate(dict, key, params, lang);
};

export const domainOf = (options: AlertMailOptions) =>
  options.domain ?? (new URL(options.siteUrl).hostname || 'localhost');
export const site = (options: AlertMailOptions) => options.siteUrl.replace(/\/+$/, '');

export interface SearchRow extends Record<string, unknown> {
  id: string;
  email: string;
  filters: FilterArgs;
  market: MarketFollow | null;
  home: HomeFollow | null;
  frequency: string;
  lang: Lang;
  status: string;
  expires_at: string;
  pending_live: boolean;
  origin: string | null;
  page_url: string | null;
  element: string | null;
  utm: Record<string, string> | null;
}

export async function loadSearch(sql: Sql, id: string): Promise<SearchRow | null> {
  const rows = await sql.query<SearchRow>(
    "select id::text as id, email, filters, market, home, frequency, lang, status, expires_at, (status = 'pending' and expires_at > internal.now()) as pending_live, origin, page_url, element, utm from internal.saved_searches where id = $1",
    [id],
  );
  return rows[0] ?? null;
}

/** True when this search's address has confirmed a search before (it has shown it is theirs). */
async function addressConfirmed(sql: Sql, id: string): Promise<boolean> {
  const rows = await sql.query<{ ok: boolean }>(
    'select exists (select 1 from internal.saved_searches o join internal.saved_searches s on s.email_key = o.email_key where s.id = $1 and o.confirmed_at is not null) as ok',
    [id],
  );
  return Boolean(rows[0]?.ok);
}

/**
 * A search as it may be told to an address that has not confirmed one: what we wrote ourselves
 * only. The words go; a place, or a city typed in, stays only if it is one of ours, by its own
 * name; a type only if it is one we know.
 */
async function withoutSendersText(sql: Sql, filters: FilterArgs): Promise<FilterArgs> {
  const { words: _words, city, place_name: _name, place, property_type, ...rest } = filters;
  const out: FilterArgs = { ...rest };
  if (place) {
    const rows = await sql.query<{ name: string }>('select name from internal.places where path = $1', [place]);
    if (rows[0]) Object.assign(out, { place, place_name: rows[0].name });
  }
  if (city) {
    const rows = await sql.query<{ name: string }>(
      "select name from internal.places where kind in ('city', 'sector') and public.search_fold(name) = public.search_fold($1) order by kind limit 1",
      [city],
    );
    if (rows[0]) out.city = rows[0].name;
  }
  if (isKnownType(property_type)) out.property_type = property_type;
  return out;
}

/** The shell every alert mail shares: the brand, the content, a footer line. */
export function page(lang: Lang, title: string, content: string, footer: string): string {
  return `<!doctype html><html lang="${lang}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${escapeHtml(title)}</title></head>
<body style="margin:0;padding:0;background:#f1f5f9;font-family:Arial,Helvetica,sans-serif;color:#0f172a;line-height:1.5">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" style="background:#f1f5f9"><tr><td align="center" style="padding:24px 12px">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" style="max-width:600px;background:#ffffff;border-radius:12px;overflow:hidden">
<tr><td style="background:#123c69;color:#ffffff;padding:16px 24px;font-size:18px;font-weight:bold">eXp Realty Ecuador</td></tr>
<tr><td style="padding:24px">${content}</td></tr>
<tr><td style="padding:16px 24px;border-top:1px solid #e2e8f0;color:#64748b;font-size:13px">${footer}</td></tr>
</table></td></tr></table></body></html>`;
}

/**
 * A mail's heading, and the grey line that says what the mail is about under it when it has one:
 * one look for every mail of ours.
 */
export const heading = (text: string, lead?: string) =>
  lead === undefined
    ? `<h1 style="margin:0 0 12px;font-size:22px">${escapeHtml(text)}</h1>`
    : `<h1 style="margin:0 0 4px;font-size:22px">${escapeHtml(text)}</h1>
<p style="margin:0 0 16px;color:#475569">${escapeHtml(lead)}</p>`;

export const button = (href: string, label: string) =>
  `<a href="${escapeHtml(href)}" style="display:inline-block;background:#123c69;color:#ffffff;text-decoration:none;font-weight:bold;padding:12px 24px;border-radius:999px">${escapeHtml(label)}</a>`;

/** A mail of ours: from the sender the options name, its Message-ID in our domain. */
export function ourMail(
  options: AlertMailOptions,
  id: string,
  fields: Omit<MailMessage, 'from' | 'messageId'>,
): MailMessage {
  return { from: options.from, messageId: `<${id}@${domainOf(options)}>`, ...fields };
}

/**
 * The links of a live saved search's mails: manage it, and unsubscribe in one click (its page, and
 * the RFC 8058 headers a mail client's button POSTs to).
 */
export async function listLinks(sql: Sql, options: AlertMailOptions, search: { id: string; lang: Lang }, t: T) {
  const base = site(options);
  const [manage, unsubscribe] = [
    await issueToken(sql, search.id, 'manage', null),
    await issueToken(sql, search.id, 'unsubscribe', null),
  ];
  const manageUrl = `${base}${localizedPath('/alerts/manage', search.lang)}?token=${manage}`;
  const unsubscribeUrl = `${base}${localizedPath('/alerts/unsubscribe', search.lang)}?token=${unsubscribe}`;
  const link = (href: string, key: string) =>
    `<a href="${escapeHtml(href)}" style="color:#1d4ed8">${escapeHtml(t(key))}</a>`;
  return {
    manageUrl,
    unsubscribeUrl,
    /** the mail's last lines: why it comes, and the links to manage and to unsubscribe */
    footer: (why: string) => ({
      text: [
        why,
        `${t('mail.alerts.alert.manage')}: ${manageUrl}`,
        `${t('mail.alerts.alert.unsubscribe')}: ${unsubscribeUrl}`,
      ],
      html: `${escapeHtml(why)}<br>${link(manageUrl, 'mail.alerts.alert.manage')} · ${link(unsubscribeUrl, 'mail.alerts.alert.unsubscribe')}`,
    }),
    headers: {
      // RFC 8058: a mail client's one-click unsubscribe POSTs "List-Unsubscribe=One-Click" to the HTTPS URL
      'List-Unsubscribe': `<${unsubscribeUrl}>`,
      'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
      'List-Id': `${t('mail.alerts.listName')} <alerts.${domainOf(options)}>`,
      'Auto-Submitted': 'auto-generated',
      Precedence: 'bulk',
    },
  };
}

/** The confirmation mail: what was asked for, how often, and the link that makes it start. */
function confirmComposer(options: AlertMailOptions): Composer {
  return async (sql, mail) => {
    const id = mail.ref_id.split(':')[0] ?? '';
    const search = await loadSearch(sql, id);
    if (!search || !search.pending_live) return null;
    const t = translator(options, search.lang);
    const token = await issueToken(sql, search.id, 'confirm', search.expires_at);
    const link = `${site(options)}${localizedPath('/alerts/confirm', search.lang)}?token=${token}`;
    // a market follow names our place by our name: nothing the sender wrote
    const what = describeAlert(
      {
        filters:
          (await addressConfirmed(sql, search.id)) || search.market || search.home
            ? search.filters
            : await withoutSendersText(sql, search.filters),
        market: search.market,
        home: search.home,
      },
      t,
    );
    const frequency = frequencyLabel(search.frequency, t);
    const subject = oneLine(t('mail.alerts.confirm.subject'));
    const text = [
      t(search.filters.operation === 'project' ? 'mail.alerts.confirm.introProjects' : 'mail.alerts.confirm.intro'),
      '',
      what,
      t('mail.alerts.confirm.frequency', { frequency }),
      '',
      `${t('mail.alerts.confirm.button')}: ${link}`,
      '',
      t('mail.alerts.confirm.expires'),
    ].join('\n');
    const html = page(
      search.lang,
      subject,
      `${heading(t('mail.alerts.confirm.heading'))}
<p style="margin:0 0 12px">${escapeHtml(t(search.filters.operation === 'project' ? 'mail.alerts.confirm.introProjects' : 'mail.alerts.confirm.intro'))}</p>
<p style="margin:0 0 4px;font-weight:bold">${escapeHtml(what)}</p>
<p style="margin:0 0 20px;color:#475569">${escapeHtml(t('mail.alerts.confirm.frequency', { frequency }))}</p>
<p style="margin:0 0 20px">${button(link, t('mail.alerts.confirm.button'))}</p>
<p style="margin:0;color:#475569;font-size:14px">${escapeHtml(t('mail.alerts.confirm.linkText'))}<br><a href="${escapeHtml(link)}" style="color:#1d4ed8;word-break:break-all">${escapeHtml(link)}</a></p>`,
      escapeHtml(t('mail.alerts.confirm.expires')),
    );
    return ourMail(options, `alert-confirm-${mail.ref_id.replace(/\W/g, '-')}`, {
      to: search.email,
      subject,
      text,
      html,
      headers: { 'Auto-Submitted': 'auto-generated' },
    });
  };
}

interface AlertRow extends Record<string, unknown> {
  id: string;
  search_id: string;
  items: Array<{ id: number | string; kind: 'new' | 'drop'; old_price: number | string | null }>;
  new_count: number;
  drop_count: number;
}

interface ListingRow extends Record<string, unknown> {
  id: string;
  title: string | null;
  price: string | null;
  city: string | null;
  bedrooms: number | null;
  bathrooms: string | null;
  square_feet: string | null;
  property_type: string | null;
  images: unknown;
  /** a new development's listing: its project's slug */
  project: string | null;
  /** a unit of a new development for sale: its project's name (docs/projects.md "Its units") */
  unit_of: string | null;
}

/** The alert: the new listings and the price drops, each linking to its page, and the links to see all, manage and unsubscribe. */
export function alertComposer(options: AlertMailOptions): Composer {
  return async (sql, mail) => {
    const alerts = await sql.query<AlertRow>(
      'select id::text as id, search_id::text as search_id, items, new_count, drop_count from internal.search_alerts where id = $1',
      [mail.ref_id],
    );
    const alert = alerts[0];
    if (!alert) return null;
    const search = await loadSearch(sql, alert.search_id);
    // unsubscribed or paused since: nothing more is sent
    if (!search || search.status !== 'active') return null;
    const ids = alert.items.map((i) => String(i.id));
    const listings = await sql.query<ListingRow>(
      `select id::text as id, title, price::text as price, city, bedrooms, bathrooms::text as bathrooms, square_feet::text as square_feet, property_type, images, operation,
              project->>'slug' as project, unit_of->>'name' as unit_of
         from internal.listings where id = any($1::bigint[]) and is_public`,
      [ids],
    );
    const byId = new Map(listings.map((l) => [l.id, l]));
    const items = alert.items.map((i) => ({ ...i, listing: byId.get(String(i.id)) })).filter((i) => i.listing);
    // every listing went off the market before the mail's turn: nothing to say
    if (!items.length) return null;
    const lang = search.lang;
    const t = translator(options, lang);
    const base = site(options);
    const { footer, headers } = await listLinks(sql, options, search, t);
    const end = footer(t('mail.alerts.alert.why'));
    const what = describeSearch(search.filters, t);
    const total = Number(alert.new_count) + Number(alert.drop_count);
    // a search of new developments is told of new projects ("1 new development: New developments in
    // Cumbayá"), in words that agree with them (Spanish: "Nuevo", "Verlo en el sitio")
    const projects = search.filters.operation === 'project';
    const counts = [
      Number(alert.new_count)
        ? t(projects ? 'mail.alerts.alert.newProjects' : 'mail.alerts.alert.newCount', {
            count: Number(alert.new_count),
            formatted: formatCount(Number(alert.new_count)),
          })
        : '',
      Number(alert.drop_count)
        ? t('mail.alerts.alert.dropCount', {
            count: Number(alert.drop_count),
            formatted: formatCount(Number(alert.drop_count)),
          })
        : '',
    ].filter(Boolean);
    const subject = oneLine(`${counts.join(t('mail.alerts.alert.and'))}: ${what}`).slice(0, 200);
    const seeAll = `${base}${localizedPath('/search-properties', lang)}?${searchPageQuery(filtersFromArgs(search.filters), { sort: 'newest' })}`;
    const media = options.mediaBase ?? base;
    const rows = items.map(({ kind, old_price, listing }) => {
      const l = listing as ListingRow;
      const title = l.title?.trim() || t('listing.defaultTitle');
      // a new development's listing is its project's page (docs/projects.md)
      const href = `${base}${listingPagePath({ id: l.id, title, project: l.project ? { slug: l.project } : null }, lang)}`;
      // a rent's price is a month's (docs/product.md "Rent and buy")
      const price = listingPrice({ price: priceValue(l.price), operation: String(l.operation) }, t);
      const was =
        kind === 'drop' && old_price !== null
          ? t('mail.alerts.alert.was', {
              price: listingPrice({ price: priceValue(old_price), operation: String(l.operation) }, t),
            })
          : '';
      const facts = [
        ...roomTexts({ bedrooms: Number(l.bedrooms ?? 0), bathrooms: Number(l.bathrooms ?? 0) }, t).map((r) => r.text),
        formatArea(Number(l.square_feet ?? 0)),
      ].join(' · ');
      const type = [typeLabel(l.property_type ?? '', t), l.unit_of ? t('listing.unitOf', { name: l.unit_of }) : '']
        .filter(Boolean)
        .join(' · ');
      const image = normaliseImages(l.images, media).find((u) => /^https?:\/\//.test(u));
      const badge = t(
        kind === 'drop'
          ? 'mail.alerts.alert.drop'
          : projects
            ? 'mail.alerts.alert.newProject'
            : 'mail.alerts.alert.new',
      );
      return {
        text: [
          `${badge}: ${title}`,
          `${price}${was ? ` (${was})` : ''} · ${type}${l.city ? ` · ${l.city}` : ''}`,
          facts,
          href,
        ].join('\n'),
        html: `<tr><td style="padding:12px 0;border-bottom:1px solid #e2e8f0">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0"><tr>
${image ? `<td width="132" valign="top" style="padding-right:12px"><a href="${escapeHtml(href)}"><img src="${escapeHtml(image)}" width="120" height="90" alt="" style="display:block;width:120px;height:90px;object-fit:cover;border-radius:8px;border:0"></a></td>` : ''}
<td valign="top">
<p style="margin:0 0 4px"><span style="display:inline-block;font-size:12px;font-weight:bold;color:#ffffff;background:${kind === 'new' ? '#15803d' : '#c8102e'};border-radius:999px;padding:2px 8px">${escapeHtml(badge)}</span></p>
<p style="margin:0 0 2px;font-weight:bold"><a href="${escapeHtml(href)}" style="color:#0f172a;text-decoration:none">${escapeHtml(title)}</a></p>
<p style="margin:0 0 2px"><strong>${escapeHtml(price)}</strong>${was ? ` <span style="color:#64748b;text-decoration:line-through">${escapeHtml(was)}</span>` : ''}</p>
<p style="margin:0;color:#475569;font-size:14px">${escapeHtml([type, l.city ?? ''].filter(Boolean).join(' · '))}<br>${escapeHtml(facts)}</p>
</td></tr></table></td></tr>`,
      };
    });
    const more =
      total > items.length
        ? t(projects ? 'mail.alerts.alert.seeAllProjects' : 'mail.alerts.alert.seeAll', {
            count: total,
            formatted: formatCount(total),
          })
        : t('mail.alerts.alert.seeSearch');
    const text = [
      t('mail.alerts.alert.heading'),
      t('mail.alerts.alert.search', { search: what }),
      '',
      ...rows.flatMap((r) => [r.text, '']),
      `${more}: ${seeAll}`,
      '',
      ...end.text,
    ].join('\n');
    const html = page(
      lang,
      subject,
      `${heading(t('mail.alerts.alert.heading'), t('mail.alerts.alert.search', { search: what }))}
<table role="presentation" width="100%" cellpadding="0" cellspacing="0">${rows.map((r) => r.html).join('\n')}</table>
<p style="margin:20px 0 0">${button(seeAll, more)}</p>`,
      end.html,
    );
    return ourMail(options, `alert-${alert.id}`, {
      to: search.email,
      subject,
      text,
      html,
      headers,
    });
  };
}

/** The team's notice of a newly confirmed search (a buyer who asked to hear from us). */
function leadComposer(options: AlertMailOptions & { teamInbox: string }): Composer {
  return async (sql, mail) => {
    const search = await loadSearch(sql, mail.ref_id);
    if (!search || search.status === 'pending' || search.status === 'expired') return null;
    const { es, both } = mailTexts(options.texts);
    const what = describeAlert(search, es);
    // a market follow (an owner watching prices, often a seller): its report; else the search
    const seeAll = search.market
      ? `${site(options)}${marketPath(search.market.place, 'es')}`
      : search.home
        ? `${site(options)}${localizedPath('/sell', 'es')}`
        : `${site(options)}${localizedPath('/search-properties', 'es')}?${searchPageQuery(filtersFromArgs(search.filters))}`;
    const lines: Array<[string, string]> = [
      [both('mail.alerts.lead.email'), search.email],
      [both('mail.alerts.lead.search'), what],
      [both('mail.alerts.lead.frequency'), frequencyLabel(search.frequency, es)],
      [both('mail.alerts.lead.language'), es(`language.${search.lang}`)],
      [both('mail.alerts.lead.link'), seeAll],
      // where the visitor came from (core/protocol/attribution.ts)
      ...attributionLines(
        { origin: search.origin, page: search.page_url, element: search.element, utm: search.utm },
        both,
      ),
    ];
    const subject = oneLine(
      `${both(search.market ? 'mail.alerts.lead.subjectMarket' : search.home ? 'mail.alerts.lead.subjectHome' : 'mail.alerts.lead.subject')}: ${what}`,
    ).slice(0, 200);
    const text = [both('mail.alerts.lead.intro'), '', ...lines.map(([k, v]) => `${k}: ${v}`)].join('\n');
    const html = `<!doctype html><html><body style="font-family:Arial,Helvetica,sans-serif;color:#0f172a;line-height:1.5">
<p>${escapeHtml(both('mail.alerts.lead.intro'))}</p>
<table cellpadding="6" style="border-collapse:collapse">${lines.map(([k, v]) => `<tr><th align="left" style="color:#475569;font-weight:600">${escapeHtml(k)}</th><td>${v.startsWith('http') ? `<a href="${escapeHtml(v)}">${escapeHtml(v)}</a>` : escapeHtml(v)}</td></tr>`).join('')}</table>
</body></html>`;
    return ourMail(options, `alert-lead-${search.id}`, {
      to: mail.recipient,
      replyTo: search.email,
      subject,
      text,
      html,
      headers: { 'Auto-Submitted': 'auto-generated' },
    });
  };
}

/** The composers of the saved searches' mails, by outbox kind. */
export function alertComposers(options: AlertMailOptions & { teamInbox: string }): Record<string, Composer> {
  return {
    'alert-confirm': confirmComposer(options),
    alert: alertComposer(options),
    'alert-lead': leadComposer(options),
  };
}
