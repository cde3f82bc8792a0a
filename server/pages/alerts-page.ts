/**
 * The pages the links of the alert mails open (docs/decisions.md #23), in the subscriber's
 * language (/alerts/... and /es/alerts/...):
 *  - /alerts/confirm?token=: what was asked for and a button that confirms (a GET confirms nothing:
 *    mail scanners open links); the POST confirms.
 *  - /alerts/unsubscribe?token=: a button; the POST unsubscribes. A mail client's one-click POST
 *    (RFC 8058, body `List-Unsubscribe=One-Click`) lands here too and unsubscribes at once.
 *  - /alerts/manage?token=: how often, pause or resume, delete.
 * The page asks the saved-searches function (ours, or a hosted project's) through HTTP, as any
 * client would; a bad, expired or used link gets a page that says so (404, 410), never an error.
 */
import type { Translate } from '../../core/translate.ts';
import { escapeHtml } from '../../core/fill.ts';
import { ALERT_FREQUENCIES, describeSearch } from '../../core/protocol/alerts.ts';
import type { FilterArgs } from '../../core/protocol/filters.ts';
import { localizedPath } from '../../core/routes.ts';
import { attrs } from './html.ts';
import type { Lang } from '../../core/lang.ts';

export type AlertPageKind = 'confirm' | 'unsubscribe' | 'manage';

interface Summary {
  filters: FilterArgs;
  frequency: string;
  status: string;
  email: string;
}

/** What the function answered, as the page needs it. */
export interface FunctionAnswer {
  status: number;
  body: { ok?: boolean; already?: boolean; error?: string; purpose?: string; used?: boolean; expired?: boolean; search?: Summary };
}

export type CallFunction = (body: Record<string, unknown>) => Promise<FunctionAnswer>;

export interface AlertPage {
  status: number;
  body: string;
}

interface Ctx {
  t: Translate;
  lang: Lang;
  token: string;
}

const message = (ctx: Ctx, key: string, status: number, extra = ''): AlertPage => ({
  status,
  body: `<section class="alert-page" aria-labelledby="alert-heading">
          <h1 id="alert-heading">${escapeHtml(ctx.t(`site.alerts.${key}.heading`))}</h1>
          <p>${escapeHtml(ctx.t(`site.alerts.${key}.text`))}</p>
          ${extra}
          <p><a class="btn btn--outline" href="${escapeHtml(localizedPath('/search-properties', ctx.lang))}">${escapeHtml(ctx.t('site.alerts.toSearch'))}</a></p>
        </section>`,
});

function details(ctx: Ctx, s: Summary | undefined): string {
  if (!s) return '';
  const lines = [
    ctx.t('site.alerts.search', { search: describeSearch(s.filters, (k, p) => ctx.t(k, p)) }),
    ctx.t('site.alerts.frequency', { frequency: ctx.t(`alerts.frequencies.${s.frequency}`) }),
    ctx.t('site.alerts.email', { email: s.email }),
  ];
  return `<ul class="alert-page__details">${lines.map((l) => `<li>${escapeHtml(l)}</li>`).join('')}</ul>`;
}

/** A form that POSTs to this page with the token (no script needed). */
const form = (ctx: Ctx, inner: string, className = '') =>
  `<form method="post"${attrs({ class: className || undefined, action: `?token=${encodeURIComponent(ctx.token)}` })}>${inner}</form>`;

const submit = (label: string, name?: string, value?: string, tone = 'btn--primary') => `<button type="submit"${attrs({ class: `btn ${tone}`, name, value })}>${escapeHtml(label)}</button>`;

/** A failed call: the link is unknown (404), gone (410), or the service is away (503). */
function failure(ctx: Ctx, answer: FunctionAnswer): AlertPage {
  const s = answer.body.search;
  if (answer.status === 404) return message(ctx, 'invalid', 404);
  if (answer.body.error === 'unsubscribed') return message(ctx, 'deleted', 410);
  if (answer.body.error === 'unconfirmed') return message(ctx, 'unconfirmed', 410, details(ctx, s));
  if (answer.status === 410) return message(ctx, 'expired', 410);
  return message(ctx, 'unavailable', 503);
}

function managePage(ctx: Ctx, s: Summary, note?: string): AlertPage {
  const { t } = ctx;
  const paused = s.status === 'paused';
  const options = ALERT_FREQUENCIES.map(
    (f) => `<label class="alert-page__option"><input type="radio" name="frequency"${attrs({ value: f, checked: s.frequency === f })} /> ${escapeHtml(t(`alerts.frequencies.${f}`))}</label>`,
  ).join('');
  return {
    status: 200,
    body: `<section class="alert-page" aria-labelledby="alert-heading">
          <h1 id="alert-heading">${escapeHtml(t('site.alerts.manage.heading'))}</h1>
          ${note ? `<p class="alert-page__note" role="status">${escapeHtml(note)}</p>` : ''}
          ${details(ctx, s)}
          <p>${escapeHtml(t('site.alerts.manage.status', { status: t(`site.alerts.manage.statuses.${paused ? 'paused' : 'active'}`) }))}</p>
          ${form(ctx, `<fieldset><legend>${escapeHtml(t('alerts.frequency'))}</legend>${options}</fieldset>${submit(t('site.alerts.manage.save'), 'do', 'save')}`, 'alert-page__form')}
          ${form(ctx, submit(t(paused ? 'site.alerts.manage.resume' : 'site.alerts.manage.pause'), 'do', paused ? 'resume' : 'pause', 'btn--outline'), 'alert-page__form')}
          ${form(ctx, submit(t('site.alerts.manage.delete'), 'do', 'delete', 'btn--accent'), 'alert-page__form')}
        </section>`,
  };
}

/** The confirm and unsubscribe pages: what the link is about, and the one button that acts. */
const actionPage = (ctx: Ctx, s: Summary, key: 'confirm' | 'unsubscribe', tone?: string): AlertPage => ({
  status: 200,
  body: `<section class="alert-page" aria-labelledby="alert-heading">
          <h1 id="alert-heading">${escapeHtml(ctx.t(`site.alerts.${key}.heading`))}</h1>
          <p>${escapeHtml(ctx.t(`site.alerts.${key}.text`))}</p>
          ${details(ctx, s)}
          ${form(ctx, submit(ctx.t(`site.alerts.${key}.button`), undefined, undefined, tone))}
        </section>`,
});

/** GET: what the link is about, and the button that acts (nothing changes yet). */
export async function alertPageGet(kind: AlertPageKind, ctx: Ctx, call: CallFunction): Promise<AlertPage> {
  if (!/^[A-Za-z0-9_-]{43}$/.test(ctx.token)) return message(ctx, 'invalid', 404);
  const answer = await call({ action: 'view', token: ctx.token });
  if (answer.status !== 200) return failure(ctx, answer);
  const { purpose, expired, search } = answer.body;
  const s = search as Summary;
  if (kind === 'confirm') {
    if (purpose !== 'confirm') return message(ctx, 'invalid', 404);
    if (s.status === 'active' || s.status === 'paused') return message(ctx, 'alreadyConfirmed', 200, details(ctx, s));
    if (s.status === 'unsubscribed') return message(ctx, 'deleted', 410);
    if (expired) return message(ctx, 'expired', 410);
    return actionPage(ctx, s, 'confirm');
  }
  if (purpose === 'confirm') return message(ctx, 'invalid', 404);
  if (kind === 'manage' && purpose !== 'manage') return message(ctx, 'invalid', 404);
  if (s.status === 'unsubscribed') return kind === 'unsubscribe' ? message(ctx, 'alreadyUnsubscribed', 200, details(ctx, s)) : message(ctx, 'deleted', 410);
  if (expired) return message(ctx, 'expired', 410);
  if (s.status === 'pending') return message(ctx, 'unconfirmed', 410, details(ctx, s));
  if (kind === 'manage') return managePage(ctx, s);
  return actionPage(ctx, s, 'unsubscribe', 'btn--accent');
}

/** POST: the button was pressed (or a mail client unsubscribed in one click). */
export async function alertPagePost(kind: AlertPageKind, ctx: Ctx, fields: URLSearchParams, call: CallFunction): Promise<AlertPage> {
  if (!/^[A-Za-z0-9_-]{43}$/.test(ctx.token)) return message(ctx, 'invalid', 404);
  if (kind === 'confirm') {
    const answer = await call({ action: 'confirm', token: ctx.token });
    if (answer.status !== 200) return failure(ctx, answer);
    return message(ctx, answer.body.already ? 'alreadyConfirmed' : 'confirmed', 200, details(ctx, answer.body.search));
  }
  if (kind === 'unsubscribe' || fields.get('do') === 'delete') {
    const answer = await call({ action: 'unsubscribe', token: ctx.token });
    if (answer.status !== 200) return failure(ctx, answer);
    if (kind === 'manage') return message(ctx, 'deleted', 200);
    return message(ctx, answer.body.already ? 'alreadyUnsubscribed' : 'unsubscribed', 200, details(ctx, answer.body.search));
  }
  const action = fields.get('do');
  const change: Record<string, unknown> = { action: 'update', token: ctx.token };
  if (action === 'save') change.frequency = fields.get('frequency') ?? '';
  else if (action === 'pause' || action === 'resume') change.paused = action === 'pause';
  const answer = await call(change);
  if (answer.status === 400) return alertPageGet('manage', ctx, call);
  if (answer.status !== 200) return failure(ctx, answer);
  const note = action === 'pause' ? ctx.t('site.alerts.manage.paused') : action === 'resume' ? ctx.t('site.alerts.manage.resumed') : ctx.t('site.alerts.manage.saved');
  return managePage(ctx, answer.body.search as Summary, note);
}
