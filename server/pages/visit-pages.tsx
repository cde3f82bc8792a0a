/**
 * The pages the links of the visit mails open (docs/visits.md "The links"), in the link holder's
 * language (/visits/... and /es/visits/...): a GET shows what the link will do and changes nothing
 * (mail scanners open links); its one button POSTs.
 *  - /visits/confirm?token= (the agent's, one per proposed time): the time, the visitor, how; the
 *    place (the listing's address, or the video call's link) and "Confirm".
 *  - /visits/propose?token= (the agent's): another time among those open in the agent's calendar.
 *  - /visits/cancel?token= (the agent's or the visitor's) and /visits/reschedule?token= (the
 *    visitor's: cancel, then choose other times on the listing's page).
 * The page asks the visits function (ours, or a hosted project's) through HTTP, as any client
 * would; a bad, expired or used link gets a page that says so (404, 410), never an error. The
 * agent's pages give times in Ecuador's time; the visitor's in their own, with Ecuador's beside.
 */
import type { ReactNode } from 'react';
import { ECUADOR_TIME_ZONE, formatVisitTime } from '../../core/protocol/visit-time.ts';
import { ecuadorBeside, localDay } from '../../core/protocol/visits.ts';
import { listingPath } from '../../core/routes.ts';
import type { VisitSummary } from '../../core/functions/visits/handler.ts';
import { TOKEN } from '../../core/functions/alerts/tokens.ts';
import { markup } from './html.tsx';
import { Section, type AlertPage, type Ctx } from './alerts-page.tsx';

export type VisitPageKind = 'confirm' | 'propose' | 'cancel' | 'reschedule';
export const VISIT_PAGES: readonly VisitPageKind[] = ['confirm', 'propose', 'cancel', 'reschedule'];

interface Answer {
  status: number;
  body: {
    ok?: boolean;
    already?: boolean;
    error?: string;
    result?: string;
    purpose?: string;
    choice?: number | null;
    expired?: boolean;
    used?: boolean;
    request?: VisitSummary;
    open?: string[];
  };
}

export type CallVisits = (body: Record<string, unknown>) => Promise<Answer>;

export type VisitPage = AlertPage;

/** A time as the link's holder reads it: the agent in Ecuador's time, the visitor in theirs with Ecuador's beside. */
function when(ctx: Ctx, at: string, r: VisitSummary, holder: 'agent' | 'visitor'): string {
  if (holder === 'agent') return formatVisitTime(at, ctx.lang, ECUADOR_TIME_ZONE);
  const ecuador = ecuadorBeside(at, ctx.lang, r.timeZone);
  return `${formatVisitTime(at, ctx.lang, r.timeZone)}${ecuador ? ` (${ctx.t('visits.ecuadorTime', { time: ecuador })})` : ''}`;
}

/** The request: the listing (a link to its page), how, who (to the agent), and the visit's time once there is one. */
function Details({
  ctx,
  r,
  holder,
  at,
}: {
  ctx: Ctx;
  r: VisitSummary;
  holder: 'agent' | 'visitor';
  at?: string | undefined;
}) {
  const { t } = ctx;
  const time = at ?? r.visit?.start;
  return (
    <ul className="alert-page__details">
      <li>
        {t('site.visits.listing')}:{' '}
        <a href={listingPath(r.listing.id, r.listing.title, ctx.lang)}>{r.listing.title || r.listing.address}</a>
      </li>
      <li>{t('site.visits.mode', { mode: t(`visits.mode.${r.mode}`) })}</li>
      {time ? <li>{t('site.visits.when', { time: when(ctx, time, r, holder) })}</li> : null}
      {r.visit?.location ? <li>{t('site.visits.where', { place: r.visit.location })}</li> : null}
      {holder === 'agent' && r.visitor ? <li>{t('site.visits.visitor', { name: r.visitor.name })}</li> : null}
      {holder === 'visitor' && r.agent.name ? <li>{t('site.visits.agent', { name: r.agent.name })}</li> : null}
    </ul>
  );
}

/** A page that says what happened (`site.visits.<key>`), with the request's details when there are some. */
function message(
  ctx: Ctx,
  key: string,
  status: number,
  r?: VisitSummary,
  holder: 'agent' | 'visitor' = 'visitor',
  params: Record<string, unknown> = {},
  extra?: ReactNode,
): VisitPage {
  return {
    status,
    body: markup(
      <Section heading={ctx.t(`site.visits.${key}.heading`)} text={ctx.t(`site.visits.${key}.text`, params)}>
        {r ? <Details ctx={ctx} r={r} holder={holder} /> : null}
        {extra}
      </Section>,
    ),
  };
}

export const unavailable = (ctx: Ctx): VisitPage => message(ctx, 'unavailable', 503);

/** A failed call: the link is unknown (404), expired or gone (410), or the service is away (503). */
function failure(ctx: Ctx, answer: Answer, holder: 'agent' | 'visitor' = 'visitor'): VisitPage {
  const r = answer.body.request;
  if (answer.status === 404) return message(ctx, 'invalid', 404);
  if (answer.status === 410) return message(ctx, 'expired', 410, r, holder);
  if (answer.body.result === 'taken') return message(ctx, 'taken', 409, r, holder);
  if (answer.body.result === 'past') return message(ctx, 'past', 410, r, holder);
  if (answer.body.result === 'unavailable') return message(ctx, 'unavailableTime', 409, r, holder);
  if (answer.status === 400) return message(ctx, 'invalidPlace', 400, r, holder);
  return unavailable(ctx);
}

/** The request is confirmed or cancelled already: what it is now. */
function settled(ctx: Ctx, r: VisitSummary, holder: 'agent' | 'visitor'): VisitPage {
  if (r.status === 'confirmed' && r.visit) return message(ctx, 'alreadyConfirmed', 200, r, holder);
  return message(ctx, 'alreadyCancelled', 200, r, holder);
}

function Form({ ctx, children }: { ctx: Ctx; children: ReactNode }) {
  return (
    <form
      method="post"
      className="alert-page__form visit-page__form"
      action={`?token=${encodeURIComponent(ctx.token)}`}
    >
      {children}
    </form>
  );
}

/** The place the agent gives: the listing's address for a visit in person, the video call's link for a video. */
function PlaceField({ ctx, r }: { ctx: Ctx; r: VisitSummary }) {
  const video = r.mode === 'video';
  return (
    <label className="visit-page__field">
      <span>{ctx.t(video ? 'site.visits.videoLink' : 'site.visits.address')}</span>
      <input
        name="location"
        type={video ? 'url' : 'text'}
        maxLength={300}
        defaultValue={video ? '' : r.listing.address}
        placeholder={video ? 'https://meet.google.com/…' : undefined}
      />
      <small>{ctx.t(video ? 'site.visits.videoLinkHelp' : 'site.visits.addressHelp')}</small>
    </label>
  );
}

/** The agent's open times, by day, as a list to choose one from. */
function TimeChoice({ ctx, open }: { ctx: Ctx; open: string[] }) {
  const days = new Map<string, string[]>();
  for (const at of open)
    days.set(localDay(at, ECUADOR_TIME_ZONE), [...(days.get(localDay(at, ECUADOR_TIME_ZONE)) ?? []), at]);
  return (
    <label className="visit-page__field">
      <span>{ctx.t('site.visits.propose.time')}</span>
      <select name="time" required defaultValue="">
        <option value="" disabled>
          {ctx.t('site.visits.propose.choose')}
        </option>
        {[...days].map(([day, times]) => (
          <optgroup key={day} label={formatVisitTime(times[0] as string, ctx.lang, ECUADOR_TIME_ZONE, 'day')}>
            {times.map((at) => (
              <option key={at} value={at}>
                {formatVisitTime(at, ctx.lang, ECUADOR_TIME_ZONE, 'both')}
              </option>
            ))}
          </optgroup>
        ))}
      </select>
    </label>
  );
}

const validToken = (token: string) => TOKEN.test(token);

/** GET: what the link is about, and the button that acts (nothing changes yet). */
export async function visitPageGet(kind: VisitPageKind, ctx: Ctx, call: CallVisits): Promise<VisitPage> {
  if (!validToken(ctx.token)) return message(ctx, 'invalid', 404);
  const answer = await call({ action: 'view', token: ctx.token });
  if (answer.status !== 200) return failure(ctx, answer);
  const { purpose, choice, expired, request: r, open } = answer.body;
  if (purpose !== kind || !r) return message(ctx, 'invalid', 404);
  const holder = r.holder;
  const { t } = ctx;
  if (kind === 'confirm' || kind === 'propose') {
    if (r.status !== 'requested') return settled(ctx, r, holder);
    if (expired) return message(ctx, 'expired', 410, r, holder);
    const at = kind === 'confirm' ? r.proposed[(choice ?? 1) - 1] : undefined;
    return {
      status: 200,
      body: markup(
        <Section heading={t(`site.visits.${kind}.heading`)} text={t(`site.visits.${kind}.text`)}>
          <Details ctx={ctx} r={r} holder={holder} at={at} />
          <Form ctx={ctx}>
            {kind === 'propose' ? <TimeChoice ctx={ctx} open={open ?? []} /> : null}
            <PlaceField ctx={ctx} r={r} />
            <button type="submit" className="btn btn--primary">
              {kind === 'confirm' && at
                ? t('site.visits.confirm.button', { time: when(ctx, at, r, holder) })
                : t('site.visits.propose.button')}
            </button>
          </Form>
        </Section>,
      ),
    };
  }
  if (r.status === 'cancelled') return message(ctx, 'alreadyCancelled', 200, r, holder);
  if (expired) return message(ctx, 'expired', 410, r, holder);
  return {
    status: 200,
    body: markup(
      <Section heading={t(`site.visits.${kind}.heading`)} text={t(`site.visits.${kind}.text`)}>
        <Details ctx={ctx} r={r} holder={holder} />
        <Form ctx={ctx}>
          <button type="submit" className="btn btn--accent">
            {t(`site.visits.${kind}.button`)}
          </button>
        </Form>
      </Section>,
    ),
  };
}

/** POST: the button was pressed. */
export async function visitPagePost(
  kind: VisitPageKind,
  ctx: Ctx,
  fields: URLSearchParams,
  call: CallVisits,
): Promise<VisitPage> {
  if (!validToken(ctx.token)) return message(ctx, 'invalid', 404);
  const body: Record<string, unknown> = { action: kind, token: ctx.token };
  if (kind === 'confirm' || kind === 'propose') body.location = fields.get('location') ?? '';
  if (kind === 'propose') body.time = fields.get('time') ?? '';
  const answer = await call(body);
  const r = answer.body.request;
  const holder = r?.holder ?? (kind === 'confirm' || kind === 'propose' ? 'agent' : 'visitor');
  if (answer.status !== 200 || !r) return failure(ctx, answer, holder);
  if (kind === 'confirm' || kind === 'propose') {
    if (answer.body.already) return settled(ctx, r, holder);
    return message(ctx, 'confirmed', 200, r, holder);
  }
  if (answer.body.already) return message(ctx, 'alreadyCancelled', 200, r, holder);
  if (kind === 'reschedule') {
    return message(
      ctx,
      'rescheduled',
      200,
      r,
      holder,
      {},
      <p>
        <a className="btn btn--primary" href={`${listingPath(r.listing.id, r.listing.title, ctx.lang)}#visit`}>
          {ctx.t('site.visits.rescheduled.button')}
        </a>
      </p>,
    );
  }
  return message(ctx, 'cancelled', 200, r, holder);
}
