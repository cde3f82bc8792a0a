/**
 * The alert job (docs/decisions.md #23): for every confirmed search whose time has come (instant:
 * every run; daily and weekly: a day or a week after its last one), the active listings that match
 * it and came on the market, or dropped in price, since its high-water mark; an alert row and its
 * mail (kind 'alert', composed when sent) for each search that has any; and the mark moved on.
 * Then the market follows whose month has come: their report's mail (MARKET_BATCH).
 *
 * Safe to run twice at once: a batch claims its searches with FOR UPDATE SKIP LOCKED, and finding,
 * queuing and moving the mark happen in one statement of one transaction, so a search is in one run
 * at a time and each window is mailed once. The window ends `settleSeconds` before now: a listing
 * written by a transaction still open when the run looks is not passed over by the mark.
 */
import { queueVisitReminders } from '../visits/store.ts';
import { queueFollowUpMails } from '../inquiry/follow-up-mail.ts';
import type { Sql, TransactionalSql } from '../sql.ts';
import type { Budget } from '../cpu-budget.ts';
import { expirePending } from './store.ts';

export interface AlertRunOptions {
  /** searches per transaction (default 200) */
  batch?: number;
  /** the window ends this many seconds before now (default 30) */
  settleSeconds?: number;
  /** listings an alert mail lists at most; the rest are counted and linked (default 12) */
  maxItems?: number;
  /** a deployed function's share of CPU (core/functions/cpu-budget.ts): no batch is begun once it is spent, the searches left stay due */
  budget?: Budget;
}

export interface AlertRunResult {
  /** searches looked at */
  searches: number;
  /** alerts made (mails queued) */
  alerts: number;
  /** unconfirmed requests that expired */
  expired: number;
  /** reminders of tomorrow's visits queued (docs/visits.md) */
  reminders?: number;
  /** agents' morning mails of the leads to follow up queued (docs/agent-area.md "Her morning mail") */
  followUps?: number;
  ms: number;
  /** stopped by its budget with searches still due (the next run goes on) */
  more?: boolean;
}

const ALERT_RUN_DEFAULTS = { batch: 200, settleSeconds: 30, maxItems: 12 } as const;

/**
 * One batch, one statement: the due searches (locked), the listings that appeared here (appeared_at:
 * inserted or made active again, whatever date a feed gives as its market date) and the
 * price changes of the batch's widest window, the matches per search (each in its own window, its own
 * filters: internal.listing_matches), the alerts and their mails, the marks moved on.
 */
const BATCH = `
with run as (select internal.now() - make_interval(secs => $2) as window_to),
batch as (
  select s.id, s.email, s.filters, s.sent_through, s.frequency, s.next_run_at
    from internal.saved_searches s
   where s.status = 'active' and s.market is null and s.home is null and s.next_run_at <= $4::timestamptz
   order by s.next_run_at, s.id
   limit $1
   for update skip locked
),
since as (select min(sent_through) as t from batch),
fresh as (
  select l.*
    from internal.listings l, since, run
   where l.is_public and l.appeared_at > since.t and l.appeared_at <= run.window_to
),
changes as (
  select c.*
    from internal.listing_price_changes c, since, run
   where c.changed_at > since.t and c.changed_at <= run.window_to
),
found_new as (
  select b.id as search_id, b.sent_through, l.id as listing_id, 'new'::text as kind, null::numeric as old_price, l.appeared_at as at
    from batch b join fresh l on l.appeared_at > b.sent_through
   where internal.listing_matches(l, b.filters)
),
drops as (
  select b.id as search_id, c.listing_id, (array_agg(c.old_price order by c.changed_at, c.id))[1] as old_price, max(c.changed_at) as at
    from batch b join changes c on c.changed_at > b.sent_through
   group by b.id, c.listing_id
),
found_drops as (
  select d.search_id, b.sent_through, l.id as listing_id, 'drop'::text as kind, d.old_price, d.at
    from drops d
    join batch b on b.id = d.search_id
    join internal.listings l on l.id = d.listing_id
   where l.price < d.old_price
     and internal.listing_matches(l, b.filters)
     -- here since the mark: it is new, not a drop
     and l.appeared_at <= b.sent_through
),
found as (
  select f.*, row_number() over (partition by f.search_id order by f.at desc, f.listing_id desc) as rn
    from (select * from found_new union all select * from found_drops) f
),
made as (
  insert into internal.search_alerts (search_id, window_from, window_to, items, new_count, drop_count)
  select f.search_id, min(f.sent_through), min(run.window_to),
         jsonb_agg(jsonb_build_object('id', f.listing_id, 'kind', f.kind, 'old_price', f.old_price) order by f.rn) filter (where f.rn <= $3),
         count(*) filter (where f.kind = 'new'), count(*) filter (where f.kind = 'drop')
    from found f, run
   group by f.search_id
  returning id, search_id
),
queued as (
  insert into internal.mail_outbox (kind, ref_id, recipient)
  select 'alert', m.id::text, b.email from made m join batch b on b.id = m.search_id
  on conflict (kind, ref_id) do nothing
  returning id
),
moved as (
  update internal.saved_searches s
     set sent_through = run.window_to,
         next_run_at = case s.frequency
           when 'instant' then internal.now()
           when 'daily' then greatest(b.next_run_at + interval '1 day', internal.now() + interval '1 hour')
           else greatest(b.next_run_at + interval '7 days', internal.now() + interval '1 hour')
         end,
         last_alert_at = case when exists (select 1 from made m where m.search_id = s.id) then internal.now() else s.last_alert_at end
    from batch b, run
   where s.id = b.id
  returning s.id
)
select (select count(*) from moved) as searches, (select count(*) from made) as alerts, (select count(*) from queued) as queued`;

/**
 * The market follows and home reports whose month has come (docs/market.md "Follow a market",
 * docs/valuation.md "A report every month"): one mail each (kind 'market-report' or 'home-report', ref `follow:YYYY-MM`, the month before the one it was due in, Ecuador's time;
 * composed when sent, from the index as it is then), and the next due early next month. A follow
 * due twice over (a server away for a month) gets one mail, of the last closed month.
 */
const MARKET_BATCH = `
with due as (
  select s.id, s.email, s.next_run_at, case when s.home is not null then 'home-report' else 'market-report' end as kind
    from internal.saved_searches s
   where s.status = 'active' and (s.market is not null or s.home is not null) and s.next_run_at <= $2::timestamptz
   order by s.next_run_at, s.id
   limit $1
   for update skip locked
),
queued as (
  insert into internal.mail_outbox (kind, ref_id, recipient)
  select d.kind, d.id::text || ':' || to_char(date_trunc('month', internal.now() at time zone 'America/Guayaquil') - interval '1 month', 'YYYY-MM'), d.email
    from due d
  on conflict (kind, ref_id) do nothing
  returning id
),
moved as (
  update internal.saved_searches s
     set next_run_at = internal.next_market_mail(internal.now()), sent_through = internal.now(), last_alert_at = internal.now()
    from due d
   where s.id = d.id
  returning s.id
)
select (select count(*) from moved) as searches, (select count(*) from queued) as alerts, (select count(*) from queued) as queued`;

/**
 * Runs every due search (as of now) in batches until none is left. `onQueued` hears of the mails
 * queued (deliver them now).
 */
export async function runAlerts(
  sql: TransactionalSql,
  options: AlertRunOptions = {},
  onQueued?: (count: number) => void,
): Promise<AlertRunResult> {
  const o = { ...ALERT_RUN_DEFAULTS, ...options };
  const started = Date.now();
  const expired = await expirePending(sql);
  // the same schedule reminds visitors of tomorrow's visits (once each, across servers: the outbox's key)
  const reminders = await queueVisitReminders(sql);
  if (reminders) onQueued?.(reminders);
  // and, in the morning, each agent of the leads she has to follow up that day (once a day each)
  const followUps = await queueFollowUpMails(sql);
  if (followUps) onQueued?.(followUps);
  // due as of the run's start, by the database's clock: an instant search the run has just done is
  // due again only in the next run
  const asOf = String(
    (
      await sql.query<{ t: string }>(
        'select to_char(internal.now() at time zone \'utc\', \'YYYY-MM-DD"T"HH24:MI:SS.US"Z"\') as t',
      )
    )[0]?.t,
  );
  let searches = 0;
  let alerts = 0;
  // the searches' alerts, then the market follows' reports, each in batches until none is due
  for (const [statement, params] of [
    [BATCH, [o.batch, o.settleSeconds, o.maxItems, asOf]],
    [MARKET_BATCH, [o.batch, asOf]],
  ] as const) {
    for (;;) {
      if (options.budget?.spent())
        return { searches, alerts, expired, reminders, followUps, ms: Date.now() - started, more: true };
      const rows = await sql.transaction((tx: Sql) =>
        tx.query<{ searches: number | string; alerts: number | string; queued: number | string }>(statement, [
          ...params,
        ]),
      );
      const done = Number(rows[0]?.searches ?? 0);
      searches += done;
      alerts += Number(rows[0]?.alerts ?? 0);
      if (Number(rows[0]?.queued ?? 0) > 0) onQueued?.(Number(rows[0]?.queued));
      if (done === 0) break;
    }
  }
  return { searches, alerts, expired, reminders, followUps, ms: Date.now() - started };
}
