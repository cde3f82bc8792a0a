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
import type { ReactNode } from 'react';
import type { Translate } from '../../core/translate.ts';
import {
  ALERT_FREQUENCIES,
  describeAlert,
  frequencyLabel,
  type HomeFollow,
  type MarketFollow,
} from '../../core/protocol/alerts.ts';
import type { FilterArgs } from '../../core/protocol/filters.ts';
import { localizedPath, marketPath } from '../../core/routes.ts';
import { TOKEN } from '../../core/functions/alerts/tokens.ts';
import { markup } from './html.tsx';
import type { Lang } from '../../core/lang.ts';

export type AlertPageKind = 'confirm' | 'unsubscribe' | 'manage';

interface Summary {
  filters: FilterArgs;
  /** a market follow (docs/market.md "Follow a market") */
  market?: MarketFollow | null;
  /** a home report (docs/valuation.md) */
  home?: HomeFollow | null;
  frequency: string;
  status: string;
  email: string;
}

/** What the function answered, as the page needs it. */
export interface FunctionAnswer {
  status: number;
  body: {
    ok?: boolean;
    already?: boolean;
    error?: string;
    purpose?: string;
    used?: boolean;
    expired?: boolean;
    search?: Summary;
  };
}

export type CallFunction = (body: Record<string, unknown>) => Promise<FunctionAnswer>;

/** A mail link's page (these and the visits': ./visit-pages.tsx): its status and its HTML. */
export interface AlertPage {
  status: number;
  body: string;
}

/** What a mail link's page knows: its language's texts and the link's token. */
export interface Ctx {
  t: Translate;
  lang: Lang;
  token: string;
}

/** A mail link's page (these, the visits': ./visit-pages.tsx, and the privacy requests': ./privacy-pages.tsx, ./consent-page.tsx): its heading, what it says, and what follows (details, buttons). */
export function Section({
  heading,
  text,
  children,
}: {
  heading: string;
  text?: string | undefined;
  children?: ReactNode;
}) {
  return (
    <section className="alert-page" aria-labelledby="link-page-heading">
      <h1 id="link-page-heading">{heading}</h1>
      {text !== undefined ? <p>{text}</p> : null}
      {children}
    </section>
  );
}

/** A page that says what happened (`site.alerts.<key>`), and the way to the search (a market follow's: to its report). */
export function message(ctx: Ctx, key: string, status: number, search?: Summary): AlertPage {
  const market = search?.market;
  const home = search?.home;
  const text = key === 'confirmed' && market ? 'marketText' : key === 'confirmed' && home ? 'homeText' : 'text';
  return {
    status,
    body: markup(
      <Section heading={ctx.t(`site.alerts.${key}.heading`)} text={ctx.t(`site.alerts.${key}.${text}`)}>
        <Details ctx={ctx} s={search} />
        <p>
          <a
            className="btn btn--outline"
            href={
              market
                ? marketPath(market.place, ctx.lang)
                : home
                  ? localizedPath('/sell', ctx.lang)
                  : localizedPath('/search-properties', ctx.lang)
            }
          >
            {ctx.t(market ? 'site.alerts.toReport' : home ? 'site.alerts.toSell' : 'site.alerts.toSearch')}
          </a>
        </p>
      </Section>,
    ),
  };
}

function Details({ ctx, s }: { ctx: Ctx; s: Summary | undefined }) {
  if (!s) return null;
  const lines = [
    ctx.t('site.alerts.search', { search: describeAlert(s, (k, p) => ctx.t(k, p)) }),
    ctx.t('site.alerts.frequency', { frequency: frequencyLabel(s.frequency, (k, p) => ctx.t(k, p)) }),
    ctx.t('site.alerts.email', { email: s.email }),
  ];
  return (
    <ul className="alert-page__details">
      {lines.map((line) => (
        <li key={line}>{line}</li>
      ))}
    </ul>
  );
}

/** A form that POSTs to this page with the token (no script needed). */
function Form({ ctx, className, children }: { ctx: Ctx; className?: string; children: ReactNode }) {
  return (
    <form method="post" className={className} action={`?token=${encodeURIComponent(ctx.token)}`}>
      {children}
    </form>
  );
}

function Submit({
  label,
  name,
  value,
  tone = 'btn--primary',
}: {
  label: string;
  name?: string;
  value?: string;
  tone?: string;
}) {
  return (
    <button type="submit" className={`btn ${tone}`} name={name} value={value}>
      {label}
    </button>
  );
}

/** A failed call: the link is unknown (404), gone (410), or the service is away (503). */
function failure(ctx: Ctx, answer: FunctionAnswer): AlertPage {
  const s = answer.body.search;
  if (answer.status === 404) return message(ctx, 'invalid', 404);
  if (answer.body.error === 'unsubscribed') return message(ctx, 'deleted', 410);
  if (answer.body.error === 'unconfirmed') return message(ctx, 'unconfirmed', 410, s);
  if (answer.status === 410) return message(ctx, 'expired', 410);
  return message(ctx, 'unavailable', 503);
}

function managePage(ctx: Ctx, s: Summary, note?: string): AlertPage {
  const { t } = ctx;
  const paused = s.status === 'paused';
  return {
    status: 200,
    body: markup(
      <Section heading={t('site.alerts.manage.heading')}>
        {note ? (
          <p className="alert-page__note" role="status">
            {note}
          </p>
        ) : null}
        <Details ctx={ctx} s={s} />
        <p>
          {t('site.alerts.manage.status', { status: t(`site.alerts.manage.statuses.${paused ? 'paused' : 'active'}`) })}
        </p>
        {/* a market follow is monthly: nothing to choose */}
        {s.market || s.home ? null : (
          <Form ctx={ctx} className="alert-page__form">
            <fieldset>
              <legend>{t('alerts.frequency')}</legend>
              {ALERT_FREQUENCIES.map((f) => (
                <label key={f} className="alert-page__option">
                  <input type="radio" name="frequency" value={f} defaultChecked={s.frequency === f} />{' '}
                  {t(`alerts.frequencies.${f}`)}
                </label>
              ))}
            </fieldset>
            <Submit label={t('site.alerts.manage.save')} name="do" value="save" />
          </Form>
        )}
        <Form ctx={ctx} className="alert-page__form">
          <Submit
            label={t(paused ? 'site.alerts.manage.resume' : 'site.alerts.manage.pause')}
            name="do"
            value={paused ? 'resume' : 'pause'}
            tone="btn--outline"
          />
        </Form>
        <Form ctx={ctx} className="alert-page__form">
          <Submit label={t('site.alerts.manage.delete')} name="do" value="delete" tone="btn--accent" />
        </Form>
      </Section>,
    ),
  };
}

/** The confirm and unsubscribe pages: what the link is about, and the one button that acts. */
const actionPage = (ctx: Ctx, s: Summary, key: 'confirm' | 'unsubscribe', tone?: string): AlertPage => ({
  status: 200,
  body: markup(
    <Section heading={ctx.t(`site.alerts.${key}.heading`)} text={ctx.t(`site.alerts.${key}.text`)}>
      <Details ctx={ctx} s={s} />
      <Form ctx={ctx}>
        <Submit label={ctx.t(`site.alerts.${key}.button`)} tone={tone} />
      </Form>
    </Section>,
  ),
});

/** GET: what the link is about, and the button that acts (nothing changes yet). */
export async function alertPageGet(kind: AlertPageKind, ctx: Ctx, call: CallFunction): Promise<AlertPage> {
  if (!TOKEN.test(ctx.token)) return message(ctx, 'invalid', 404);
  const answer = await call({ action: 'view', token: ctx.token });
  if (answer.status !== 200) return failure(ctx, answer);
  const { purpose, expired, search } = answer.body;
  const s = search as Summary;
  if (kind === 'confirm') {
    if (purpose !== 'confirm') return message(ctx, 'invalid', 404);
    if (s.status === 'active' || s.status === 'paused') return message(ctx, 'alreadyConfirmed', 200, s);
    if (s.status === 'unsubscribed') return message(ctx, 'deleted', 410);
    if (expired) return message(ctx, 'expired', 410);
    return actionPage(ctx, s, 'confirm');
  }
  if (purpose === 'confirm') return message(ctx, 'invalid', 404);
  if (kind === 'manage' && purpose !== 'manage') return message(ctx, 'invalid', 404);
  if (s.status === 'unsubscribed')
    return kind === 'unsubscribe' ? message(ctx, 'alreadyUnsubscribed', 200, s) : message(ctx, 'deleted', 410);
  if (expired) return message(ctx, 'expired', 410);
  if (s.status === 'pending') return message(ctx, 'unconfirmed', 410, s);
  if (kind === 'manage') return managePage(ctx, s);
  return actionPage(ctx, s, 'unsubscribe', 'btn--accent');
}

/** POST: the button was pressed (or a mail client unsubscribed in one click). */
export async function alertPagePost(
  kind: AlertPageKind,
  ctx: Ctx,
  fields: URLSearchParams,
  call: CallFunction,
): Promise<AlertPage> {
  if (!TOKEN.test(ctx.token)) return message(ctx, 'invalid', 404);
  if (kind === 'confirm') {
    const answer = await call({ action: 'confirm', token: ctx.token });
    if (answer.status !== 200) return failure(ctx, answer);
    return message(ctx, answer.body.already ? 'alreadyConfirmed' : 'confirmed', 200, answer.body.search);
  }
  if (kind === 'unsubscribe' || fields.get('do') === 'delete') {
    const answer = await call({ action: 'unsubscribe', token: ctx.token });
    if (answer.status !== 200) return failure(ctx, answer);
    if (kind === 'manage') return message(ctx, 'deleted', 200);
    return message(ctx, answer.body.already ? 'alreadyUnsubscribed' : 'unsubscribed', 200, answer.body.search);
  }
  const action = fields.get('do');
  const change: Record<string, unknown> = { action: 'update', token: ctx.token };
  if (action === 'save') change.frequency = fields.get('frequency') ?? '';
  else if (action === 'pause' || action === 'resume') change.paused = action === 'pause';
  const answer = await call(change);
  if (answer.status === 400) return alertPageGet('manage', ctx, call);
  if (answer.status !== 200) return failure(ctx, answer);
  const note =
    action === 'pause'
      ? ctx.t('site.alerts.manage.paused')
      : action === 'resume'
        ? ctx.t('site.alerts.manage.resumed')
        : ctx.t('site.alerts.manage.saved');
  return managePage(ctx, answer.body.search as Summary, note);
}
