/**
 * A saved search's mail of the month: the market's report of a place it follows (docs/market.md
 * "Follow a market") or the value of a home (docs/valuation.md "A report every month"). The outbox
 * row's reference is `<search id>:<YYYY-MM>`; a search no longer active (unsubscribed or paused
 * since), or not of this kind, gets nothing; the mail is ours, to the search's address, with the
 * links to manage and leave it, their tokens issued only for a mail that is made.
 */
import type { Composer } from '../outbox/worker.ts';
import type { Sql } from '../sql.ts';
import {
  listLinks,
  loadSearch,
  ourMail,
  site,
  translator,
  type AlertMailOptions,
  type SearchRow,
  type T,
} from './mail.ts';

type Kind = 'market' | 'home';

/** What a month's mail is made from. */
export interface MonthlyReport<K extends Kind> {
  sql: Sql;
  search: SearchRow & { [key in K]: NonNullable<SearchRow[key]> };
  /** the month it reports, YYYY-MM */
  monthRef: string;
  t: T;
  /** the site's address, where its links go */
  base: string;
  /** the mail's last lines: why it comes (`why`), and the links to manage the search and leave it */
  footer: (why: string) => Promise<{ text: string[]; html: string }>;
}

export function monthlyReportComposer<K extends Kind>(
  options: AlertMailOptions,
  kind: K,
  make: (report: MonthlyReport<K>) => Promise<{ subject: string; text: string; html: string } | null>,
): Composer {
  return async (sql, mail) => {
    const [id = '', monthRef = ''] = mail.ref_id.split(':');
    const search = await loadSearch(sql, id);
    if (!search || search.status !== 'active' || !search[kind] || !/^\d{4}-\d{2}$/.test(monthRef)) return null;
    const t = translator(options, search.lang);
    let headers: Record<string, string> | undefined;
    const made = await make({
      sql,
      search: search as MonthlyReport<K>['search'],
      monthRef,
      t,
      base: site(options),
      footer: async (why) => {
        const links = await listLinks(sql, options, search, t);
        headers = links.headers;
        return links.footer(why);
      },
    });
    if (!made) return null;
    // a mail of the month always says how to leave it (and a mail client's one-click unsubscribe)
    if (!headers) throw new Error(`the ${kind} report was made without its footer`);
    return ourMail(options, `${kind}-report-${mail.ref_id.replace(/\W/g, '-')}`, {
      to: search.email,
      ...made,
      headers,
    });
  };
}
