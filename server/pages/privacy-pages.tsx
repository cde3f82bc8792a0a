/**
 * The privacy pages (docs/privacy.md), written by the server so a crawler, a link preview and a
 * browser without scripts read them whole (the notice, /privacy: ./privacy-notice.tsx):
 *  - /privacy/my-data (/es/privacidad/mis-datos): her data on request, through the privacy function
 *    (ours or a hosted project's) as any client calls it. GET: the form that asks for the link, or
 *    with the link's token a button that opens it (a mail scanner that opens links uses nothing);
 *    POST: ask, open, download (JSON), correct, erase, each a plain form.
 */
import type { ReactNode } from 'react';
import type { Lang } from '../../core/lang.ts';
import { frequencyLabel } from '../../core/protocol/alerts.ts';
import { localizedPath } from '../../core/routes.ts';
import type { Translate } from '../../core/translate.ts';
import { TOKEN } from '../../core/functions/alerts/tokens.ts';
import { markup } from './html.tsx';
import { Section } from './alerts-page.tsx';

/** What a privacy page knows: its language's texts, the link's token and the visitor's client. */
export interface PrivacyCtx {
  t: Translate;
  lang: Lang;
  token: string;
}

type Call = (body: Record<string, unknown>) => Promise<{ status: number; body: Record<string, unknown> }>;
/** A page, or a file to download. */
export type PrivacyPage = { status: number; body: string; download?: { filename: string; json: string } };

const HOURS = 24;
const MINUTES = 30;

/** A time as the privacy pages show it, on Ecuador's clock ('' for none). */
export function shownTime(lang: Lang, v: unknown, style: 'long' | 'medium' = 'medium'): string {
  if (typeof v !== 'string' || !v) return '';
  return new Intl.DateTimeFormat(lang === 'es' ? 'es-EC' : 'en-GB', {
    dateStyle: style,
    ...(style === 'medium' ? { timeStyle: 'short' } : {}),
    timeZone: 'America/Guayaquil',
  }).format(new Date(v));
}

/** The form that asks for a link, with what went wrong, if anything. */
function AskForm({ ctx, error }: { ctx: PrivacyCtx; error?: string | undefined }) {
  const { t } = ctx;
  return (
    <form
      method="post"
      action={localizedPath('/privacy/my-data', ctx.lang)}
      className="alert-page__form visit-page__form"
    >
      <label className="visit-page__field">
        {t('site.privacy.myData.email')}
        <input
          type="email"
          name="email"
          autoComplete="email"
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? 'my-data-error' : undefined}
        />
      </label>
      {error ? (
        <p id="my-data-error" role="alert">
          {error}
        </p>
      ) : null}
      {/* a bot fills every field; a person never sees this one */}
      <input
        type="text"
        name="website"
        tabIndex={-1}
        autoComplete="off"
        className="visually-hidden"
        aria-hidden="true"
      />
      <button type="submit" className="btn btn--primary" name="do" value="ask">
        {t('site.privacy.myData.send')}
      </button>
      <p>
        <a href={localizedPath('/privacy', ctx.lang)}>{t('site.privacy.myData.notice')}</a>
      </p>
    </form>
  );
}

const askPage = (ctx: PrivacyCtx, status = 200, error?: string, key = ''): PrivacyPage => ({
  status,
  body: markup(
    <Section
      heading={ctx.t(key ? `site.privacy.myData.${key}.heading` : 'site.privacy.myData.title')}
      text={ctx.t(key ? `site.privacy.myData.${key}.text` : 'site.privacy.myData.intro', { hours: HOURS })}
    >
      <AskForm ctx={ctx} error={error} />
    </Section>,
  ),
});

type Data = {
  email: string;
  inquiries: Array<Record<string, unknown>>;
  saved_searches: Array<Record<string, unknown>>;
  mails: Array<Record<string, unknown>>;
  consents: Array<Record<string, unknown>>;
  requests: Array<Record<string, unknown>>;
};

/** A form that acts within the opened session (hidden), posted to this page. */
function SessionForm({
  ctx,
  session,
  children,
  className,
}: {
  ctx: PrivacyCtx;
  session: string;
  children: ReactNode;
  className?: string;
}) {
  return (
    <form
      method="post"
      action={localizedPath('/privacy/my-data', ctx.lang)}
      className={className ?? 'alert-page__form'}
    >
      <input type="hidden" name="session" value={session} />
      {children}
    </form>
  );
}

function dataPage(ctx: PrivacyCtx, session: string, data: Data, note?: { text: string; error?: boolean }): PrivacyPage {
  const { t } = ctx;
  const when = (v: unknown) => shownTime(ctx.lang, v);
  const Rows = ({ rows, group = 'fields' }: { rows: Array<[string, unknown]>; group?: string }) => (
    <dl className="privacy-data__rows">
      {rows
        .filter(([, v]) => v !== null && v !== undefined && v !== '')
        .map(([k, v]) => (
          <div key={k}>
            <dt>{t(`site.privacy.myData.${group}.${k}`)}</dt>
            <dd>{String(v)}</dd>
          </div>
        ))}
    </dl>
  );
  const first = data.inquiries[0] as { name?: string; phone?: string } | undefined;
  return {
    status: 200,
    body: markup(
      <Section
        heading={t('site.privacy.myData.shown.heading', { email: data.email })}
        text={t('site.privacy.myData.shown.session', { minutes: MINUTES })}
      >
        {note ? (
          <p className={note.error ? undefined : 'alert-page__note'} role={note.error ? 'alert' : 'status'}>
            {note.text}
          </p>
        ) : null}
        <h2>{t('site.privacy.myData.inquiries')}</h2>
        {data.inquiries.length ? (
          <ul className="privacy-data__list">
            {data.inquiries.map((i) => (
              <li key={String(i.id)}>
                <Rows
                  rows={[
                    ['received', when(i.received_at)],
                    ['name', i.name],
                    ['phone', i.phone],
                    ['about', i.about],
                    ['message', i.message],
                    ['agent', i.agent],
                    ['status', i.status ? t(`agentArea.status.${String(i.status)}`) : null],
                    ['visit', i.visit ? when(((i.visit as { proposed?: string[] }).proposed ?? [])[0]) : null],
                    ['notes', ((i.notes as Array<{ text: string }> | null) ?? []).map((n) => n.text).join(' · ')],
                  ]}
                />
              </li>
            ))}
          </ul>
        ) : (
          <p>{t('site.privacy.myData.none')}</p>
        )}
        <h2>{t('site.privacy.myData.searches')}</h2>
        {data.saved_searches.length ? (
          <ul className="privacy-data__list">
            {data.saved_searches.map((s) => (
              <li key={String(s.id)}>
                <Rows
                  rows={[
                    ['created', when(s.created_at)],
                    ['kind', t(`site.privacy.myData.kinds.${s.market ? 'market' : s.home ? 'home' : 'search'}`)],
                    ['frequency', frequencyLabel(String(s.frequency), (k, p) => t(k, p))],
                    ['status', t(`site.privacy.myData.searchStatus.${String(s.status)}`)],
                    ['alerts', s.alerts_sent],
                  ]}
                />
              </li>
            ))}
          </ul>
        ) : (
          <p>{t('site.privacy.myData.none')}</p>
        )}
        <h2>{t('site.privacy.myData.consents')}</h2>
        {data.consents?.length ? (
          <ul className="privacy-data__list">
            {data.consents.map((c) => (
              <li key={String(c.id)}>
                <p>“{String(c.text)}”</p>
                <Rows
                  rows={[
                    ['given', when(c.given_at)],
                    ['page', c.page],
                    ['version', c.notice_version],
                    ['withdrawn', when(c.withdrawn_at)],
                  ]}
                  group="consentFields"
                />
                {c.withdrawn_at ? null : (
                  <SessionForm ctx={ctx} session={session}>
                    <input type="hidden" name="consent" value={String(c.id)} />
                    <button type="submit" className="btn btn--outline" name="do" value="withdraw">
                      {t('site.privacy.myData.withdraw')}
                    </button>
                  </SessionForm>
                )}
              </li>
            ))}
          </ul>
        ) : (
          <p>{t('site.privacy.myData.none')}</p>
        )}
        <h2>{t('site.privacy.myData.mails')}</h2>
        {data.mails.length ? (
          <ul className="privacy-data__list">
            {data.mails.map((m, n) => (
              <li key={n}>
                <Rows
                  rows={[
                    ['kind', t(`site.privacy.myData.mailKinds.${String(m.kind)}`)],
                    ['sent', when(m.sent_at) || t(`site.privacy.myData.mailStatus.${String(m.status)}`)],
                  ]}
                />
              </li>
            ))}
          </ul>
        ) : (
          <p>{t('site.privacy.myData.none')}</p>
        )}
        <h2>{t('site.privacy.myData.requests')}</h2>
        <ul className="privacy-data__list">
          {data.requests.map((r, n) => (
            <li key={n}>
              <Rows
                rows={[
                  ['kind', t(`site.privacy.myData.requestKinds.${String(r.kind)}`)],
                  ['asked', when(r.asked_at)],
                  ['answered', when(r.answered_at)],
                ]}
              />
            </li>
          ))}
        </ul>
        <SessionForm ctx={ctx} session={session}>
          <button type="submit" className="btn btn--outline" name="do" value="download">
            {t('site.privacy.myData.download')}
          </button>
        </SessionForm>
        <h2>{t('site.privacy.myData.correct.heading')}</h2>
        <SessionForm ctx={ctx} session={session} className="alert-page__form visit-page__form">
          <label className="visit-page__field">
            {t('site.privacy.myData.correct.name')}
            <input type="text" name="name" maxLength={120} autoComplete="name" defaultValue={first?.name ?? ''} />
          </label>
          <label className="visit-page__field">
            {t('site.privacy.myData.correct.phone')}
            <input type="tel" name="phone" maxLength={40} autoComplete="tel" defaultValue={first?.phone ?? ''} />
          </label>
          <button type="submit" className="btn btn--primary" name="do" value="correct">
            {t('site.privacy.myData.correct.button')}
          </button>
        </SessionForm>
        <h2>{t('site.privacy.myData.erase.heading')}</h2>
        <p>{t('site.privacy.myData.erase.text')}</p>
        <SessionForm ctx={ctx} session={session} className="alert-page__form visit-page__form">
          <label className="alert-page__option">
            <input type="checkbox" name="confirm" value="yes" /> {t('site.privacy.myData.erase.confirm')}
          </label>
          <button type="submit" className="btn btn--accent" name="do" value="erase">
            {t('site.privacy.myData.erase.button')}
          </button>
        </SessionForm>
      </Section>,
    ),
  };
}

/** A link or session the function did not take: unknown (404), used or late (410), or the service away. */
function failure(ctx: PrivacyCtx, status: number): PrivacyPage {
  if (status === 404) return askPage(ctx, 404, undefined, 'invalid');
  if (status === 410) return askPage(ctx, 410, undefined, 'expired');
  if (status === 429) return askPage(ctx, 429, ctx.t('site.privacy.myData.limited'));
  return {
    status: 503,
    body: markup(
      <Section
        heading={ctx.t('site.privacy.myData.unavailable.heading')}
        text={ctx.t('site.privacy.myData.unavailable.text')}
      />,
    ),
  };
}

/** The page while the function is away. */
export const myDataUnavailable = (ctx: PrivacyCtx): PrivacyPage => failure(ctx, 503);

export async function myDataGet(ctx: PrivacyCtx): Promise<PrivacyPage> {
  if (!ctx.token) return askPage(ctx);
  if (!TOKEN.test(ctx.token)) return failure(ctx, 404);
  return {
    status: 200,
    body: markup(
      <Section heading={ctx.t('site.privacy.myData.open.heading')} text={ctx.t('site.privacy.myData.open.text')}>
        <form
          method="post"
          action={`${localizedPath('/privacy/my-data', ctx.lang)}?token=${encodeURIComponent(ctx.token)}`}
          className="alert-page__form"
        >
          <button type="submit" className="btn btn--primary" name="do" value="open">
            {ctx.t('site.privacy.myData.open.button')}
          </button>
        </form>
      </Section>,
    ),
  };
}

export async function myDataPost(ctx: PrivacyCtx, fields: URLSearchParams, call: Call): Promise<PrivacyPage> {
  const action = fields.get('do') ?? '';
  const session = fields.get('session') ?? '';
  if (action === 'ask') {
    const answer = await call({
      action: 'ask',
      email: fields.get('email') ?? '',
      lang: ctx.lang,
      website: fields.get('website') ?? '',
    });
    if (answer.status === 400) return askPage(ctx, 400, ctx.t('site.privacy.myData.invalidEmail'));
    if (answer.status !== 200) return failure(ctx, answer.status);
    return {
      status: 200,
      body: markup(
        <Section
          heading={ctx.t('site.privacy.myData.sent.heading')}
          text={ctx.t('site.privacy.myData.sent.text', { hours: HOURS })}
        />,
      ),
    };
  }
  if (action === 'open') {
    const answer = await call({ action: 'open', token: ctx.token });
    if (answer.status !== 200) return failure(ctx, answer.status);
    return dataPage(ctx, String(answer.body.session), answer.body.data as Data);
  }
  if (action === 'download') {
    const answer = await call({ action: 'view', session });
    if (answer.status !== 200) return failure(ctx, answer.status);
    return {
      status: 200,
      body: '',
      download: { filename: 'my-data.json', json: JSON.stringify(answer.body.data, null, 2) },
    };
  }
  if (action === 'correct') {
    const answer = await call({
      action: 'correct',
      session,
      name: fields.get('name') ?? '',
      phone: fields.get('phone') ?? '',
    });
    if (answer.status === 400) {
      const again = await call({ action: 'view', session });
      if (again.status !== 200) return failure(ctx, again.status);
      return {
        ...dataPage(ctx, session, again.body.data as Data, {
          text: ctx.t('site.privacy.myData.correct.invalid'),
          error: true,
        }),
        status: 400,
      };
    }
    if (answer.status !== 200) return failure(ctx, answer.status);
    return dataPage(ctx, session, answer.body.data as Data, { text: ctx.t('site.privacy.myData.correct.done') });
  }
  if (action === 'withdraw') {
    const answer = await call({ action: 'withdraw', session, consent: fields.get('consent') ?? '' });
    if (answer.status !== 200) return failure(ctx, answer.status === 400 ? 404 : answer.status);
    return dataPage(ctx, session, answer.body.data as Data, { text: ctx.t('site.privacy.myData.withdrawn') });
  }
  if (action === 'erase') {
    if (fields.get('confirm') !== 'yes') {
      const again = await call({ action: 'view', session });
      if (again.status !== 200) return failure(ctx, again.status);
      return {
        ...dataPage(ctx, session, again.body.data as Data, {
          text: ctx.t('site.privacy.myData.erase.must'),
          error: true,
        }),
        status: 400,
      };
    }
    const answer = await call({ action: 'erase', session });
    if (answer.status !== 200) return failure(ctx, answer.status);
    const done = answer.body.erased as { inquiries?: number; saved_searches?: number; mails?: number };
    return {
      status: 200,
      body: markup(
        <Section
          heading={ctx.t('site.privacy.myData.erase.done.heading')}
          text={ctx.t('site.privacy.myData.erase.done.text', {
            inquiries: done.inquiries ?? 0,
            searches: done.saved_searches ?? 0,
            mails: done.mails ?? 0,
          })}
        />,
      ),
    };
  }
  return askPage(ctx, 400);
}
