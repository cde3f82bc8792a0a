/**
 * Her morning mail (docs/agent-area.md "Her morning mail"): the leads an agent has to follow up
 * that day, as the database lists them when the mail is sent (the view internal.leads_to_follow_up:
 * the follow-ups whose day has come, then the leads still new from before the day), with one tap to
 * call or write each and the link to her area; and the team's inbox the same of the team's own
 * leads (no agent's). Kind 'follow-ups', ref `<agent id>:<YYYY-MM-DD>` or `team:<YYYY-MM-DD>`,
 * queued by the alert job's schedule (queueFollowUpMails). Dropped when she has turned it off or
 * left since, when nothing is left to follow up, or when its day is over (tomorrow's comes). Its
 * labels in both languages, Spanish first, as the team's other mails (../outbox/bilingual.ts);
 * everything a visitor typed is escaped in the HTML part.
 */
import type { Composer } from '../outbox/worker.ts';
import type { Sql } from '../sql.ts';
import { escapeHtml } from '../../protocol/html.ts';
import { dayLabel, followUpState, leadAbout } from '../../protocol/follow-up.ts';
import type { Translate } from '../../translate.ts';
import { ecuadorDay } from '../../protocol/calendar.ts';
import { localizedPath } from '../../routes.ts';
import { mailTexts } from '../outbox/bilingual.ts';
import { oneLine } from '../outbox/mail-header.ts';
import type { InquiryMailOptions } from './mail.ts';

/** the leads a mail lists at most; the rest are counted, and are in her area */
const FOLLOW_UPS_LISTED = 25;

/** Queues the day's mail of every agent of ours with leads to follow up (and the team's), from 07:00 to noon in Ecuador, once a day each across servers; how many. */
export async function queueFollowUpMails(sql: Sql): Promise<number> {
  const [row] = await sql.query<{ queued: number }>('select internal.queue_follow_up_mails() as queued');
  return Number(row?.queued ?? 0);
}

interface FollowUpRow extends Record<string, unknown> {
  name: string;
  email: string;
  phone: string | null;
  status: string;
  follow_up_on: string | null;
  received_at: string;
  kind: 'listing' | 'valuation' | 'general';
  property_title: string | null;
  total: number;
}

/** `teamInbox`: where the team's own mail goes (ref `team:<day>`) */
export function followUpComposer(options: InquiryMailOptions & { teamInbox: string }): Composer {
  return async (sql, mail) => {
    const [who = '', day = ''] = mail.ref_id.split(':');
    const team = who === 'team';
    if ((!team && !/^\d+$/.test(who)) || !/^\d{4}-\d{2}-\d{2}$/.test(day)) return null;
    // (still to be sent: on its day; an agent's, to an agent of ours who has not turned it off)
    const [to] = await sql.query<{ email: string | null; first_name: string | null }>(
      team
        ? `select null as email, null as first_name where $1::date >= (internal.now() at time zone 'America/Guayaquil')::date`
        : `select a.email, a.first_name from public.agents a
            where a.id = $2::bigint and a.is_ours and a.follow_up_mail and a.email is not null
              and $1::date >= (internal.now() at time zone 'America/Guayaquil')::date`,
      team ? [day] : [day, who],
    );
    if (!to) return null;
    // the longest due first, then the oldest new ones (the team's: no agent's)
    const leads = await sql.query<FollowUpRow>(
      `select i.name, i.email, i.phone, i.status, i.follow_up_on::text as follow_up_on, i.received_at, i.kind, i.property_title,
              (count(*) over ())::integer as total
         from internal.leads_to_follow_up i where ${team ? 'i.owner_agent_id is null' : 'i.owner_agent_id = $2::bigint'}
        order by i.follow_up_on nulls last, i.received_at, i.id limit $1`,
      team ? [FOLLOW_UPS_LISTED] : [FOLLOW_UPS_LISTED, who],
    );
    if (!leads.length) return null;
    return {
      ...followUpMessage(options, team ? null : to, day, leads, mail.ref_id),
      to: team ? options.teamInbox : to.email!,
    };
  };
}

function followUpMessage(
  options: InquiryMailOptions,
  /** the agent it is to; null: the team */
  agent: { first_name: string | null } | null,
  day: string,
  leads: FollowUpRow[],
  ref: string,
) {
  const { es, en, both } = mailTexts(options.texts);
  // a text each language says its own way (its day, its title), Spanish first
  const inBoth = (say: (t: Translate) => string) => `${say(es)} / ${say(en)}`;
  const total = Number(leads[0]?.total ?? leads.length);
  // where each lead's follow-up stands (or when it came, a new one), and what it asked about
  const lines = leads.map((lead) => {
    const state = followUpState(lead, day);
    const when =
      state === 'overdue'
        ? inBoth((t) => t('agentArea.followUpOverdue', { date: dayLabel(lead.follow_up_on!, t) }))
        : state === 'today'
          ? both('agentArea.followUpToday')
          : inBoth((t) => t('mail.followUps.came', { date: dayLabel(ecuadorDay(lead.received_at), t) }));
    const about = inBoth((t) => leadAbout({ ...lead, property_title: oneLine(lead.property_title ?? '') }, t));
    return { lead, due: state !== null, when, about };
  });
  const sections = [
    { heading: both('mail.followUps.due'), items: lines.filter((l) => l.due) },
    { heading: both('mail.followUps.fresh'), items: lines.filter((l) => !l.due) },
  ].filter((s) => s.items.length);
  const area = `${options.siteUrl.replace(/\/+$/, '')}${localizedPath('/agent', 'es')}`;
  const greeting = agent?.first_name
    ? both('mail.inquiry.greetingNamed', { name: oneLine(agent.first_name) })
    : both('mail.inquiry.greeting');
  const intro = both(agent ? 'mail.followUps.intro' : 'mail.followUps.introTeam');
  const more = total > leads.length ? both('mail.followUps.more', { count: total - leads.length }) : '';
  const open = both('mail.followUps.open');
  const why = both(agent ? 'mail.followUps.why' : 'mail.followUps.whyTeam');
  const text = [
    greeting,
    '',
    intro,
    ...sections.flatMap((s) => [
      '',
      `${s.heading} (${s.items.length})`,
      ...s.items.map(({ lead, when, about }) =>
        [
          '-',
          oneLine(lead.name),
          '—',
          when,
          '—',
          about,
          lead.phone ? `— ${oneLine(lead.phone)}` : '',
          `— ${oneLine(lead.email)}`,
        ]
          .filter(Boolean)
          .join(' '),
      ),
    ]),
    ...(more ? ['', more] : []),
    '',
    `${open}: ${area}`,
    '',
    why,
  ].join('\n');
  // one lead a block, its lines one under the other (a phone's width: no columns to squeeze)
  const block = ({ lead, when, about }: (typeof lines)[number]) =>
    `<p style="margin:0 0 14px"><strong>${escapeHtml(lead.name)}</strong><br><span style="color:#475569">${escapeHtml(when)}<br>${escapeHtml(about)}</span><br>${
      lead.phone
        ? `<a href="tel:${escapeHtml(lead.phone.replace(/[^\d+]/g, ''))}">${escapeHtml(lead.phone)}</a> · `
        : ''
    }<a href="mailto:${escapeHtml(lead.email)}">${escapeHtml(lead.email)}</a></p>`;
  const html = `<!doctype html><html><body style="font-family:Arial,Helvetica,sans-serif;color:#0f172a;line-height:1.5">
<p>${escapeHtml(greeting)}</p>
<p>${escapeHtml(intro)}</p>
${sections
  .map(
    (s) =>
      `<h2 style="font-size:16px;margin:20px 0 8px">${escapeHtml(s.heading)} (${s.items.length})</h2>\n${s.items.map(block).join('\n')}`,
  )
  .join('\n')}
${more ? `<p>${escapeHtml(more)}</p>` : ''}
<p><a href="${escapeHtml(area)}" style="display:inline-block;background:#0c4a6e;color:#ffffff;padding:10px 16px;border-radius:6px;text-decoration:none">${escapeHtml(open)}</a></p>
<p style="color:#64748b;font-size:13px">${escapeHtml(why)}</p>
</body></html>`;
  return {
    from: options.from,
    subject: both('mail.followUps.subject', { count: total }).slice(0, 200),
    text,
    html,
    messageId: `<follow-ups-${ref.replace(/\W/g, '-')}@${options.domain ?? 'exp-ecuador.local'}>`,
    headers: { 'Auto-Submitted': 'auto-generated' },
  };
}
