/**
 * <exp-agent-directory> (docs/product.md §2): title, subtitle, a search by name or e-mail (Enter or the
 * button), the count of agents, a grid of photos and names, and a dialog with the agent's contacts.
 * Loaded once on entry with an empty search and again on each search; a failed load shows an empty
 * list (logged). With a `place`, the empty search lists the agents who serve it (public.area_agents),
 * with a way to all of them.
 */
import { useEffect, useId, useMemo, useRef, useState, type FormEvent } from 'react';
import { AGENTS_ANSWER_MARK, toAgent, profileHref, type Agent } from '../../core/protocol/agent.ts';
import type { AgentRecord } from '../../core/protocol/records.ts';
import { isRows, pageAnswer } from '../lib/page-answer.ts';
import { AgentPhoto } from '../lib/agents/agent-photo.tsx';
import { getAgents, getAreaAgents } from '../lib/data/agents.ts';
import { getClients } from '../lib/data/client.ts';
import { useElement, type ElementProps } from '../lib/element.tsx';
import { emit } from '../lib/events.ts';
import { formatCount, telHref } from '../../core/protocol/format.ts';
import { Dialog, DialogClose } from '../lib/ui/dialog.tsx';
import { MailIcon } from '../lib/ui/icons/mail.tsx';
import { PhoneIcon } from '../lib/ui/icons/phone.tsx';
import { SearchIcon } from '../lib/ui/icons/search.tsx';
import type { agentDirectoryAttributes } from './agent-directory.attributes.ts';

export function AgentDirectory({ profileUrl, showTitle, place, max }: ElementProps<typeof agentDirectoryAttributes>) {
  const { t, api, host } = useElement();
  const id = useId();
  const [text, setText] = useState('');
  const [search, setSearch] = useState<{ text: string; n: number }>({ text: '', n: 0 });
  // the directory's page carries its agents (server/pages/agent-list.tsx): the first list, not asked for again
  const [given] = useState(() => {
    const rows = place ? undefined : pageAnswer(host, AGENTS_ANSWER_MARK);
    return isRows(rows) ? (rows as unknown as AgentRecord[]) : undefined;
  });
  const [agents, setAgents] = useState<Agent[]>(() => given?.map((r) => toAgent(r, api.url)) ?? []);
  const [status, setStatus] = useState<'loading' | 'ready'>(given ? 'ready' : 'loading');
  const first = useRef(Boolean(given));
  const [open, setOpen] = useState<Agent | null>(null);
  const latest = useRef(0);
  // the place's agents, until a search or "Show all agents" (a new place shows its own again)
  const [allAgents, setAllAgents] = useState(false);
  const [area, setArea] = useState<{ name: string; serving: boolean } | null>(null);
  useEffect(() => setAllAgents(false), [place]);

  useEffect(() => {
    if (first.current) {
      first.current = false;
      return;
    }
    const ticket = ++latest.current;
    const rest = getClients(api).rest;
    const byPlace = Boolean(place) && !search.text && !allAgents;
    setStatus('loading');
    (async () => {
      if (byPlace) {
        // the place's agents; when they cannot be read (a backend without public.area_agents), all of them
        const found = await getAreaAgents(rest, place).catch((error: unknown) => {
          console.error("[exp-agent-directory] could not load the place's agents:", error);
          return null;
        });
        if (found?.agents.length)
          return { rows: found.agents, area: found.place ? { name: found.place.name, serving: true } : null };
        return {
          rows: await getAgents(rest, ''),
          area: found?.place ? { name: found.place.name, serving: false } : null,
        };
      }
      return { rows: await getAgents(rest, search.text), area: null };
    })()
      .then((found) => {
        if (ticket !== latest.current) return;
        setAgents(found.rows.map((r) => toAgent(r, api.url)));
        setArea(found.area);
      })
      .catch((error: unknown) => {
        // docs/product.md §8: the list becomes empty, the error is logged
        console.error('[exp-agent-directory] could not load the agents:', error);
        if (ticket === latest.current) {
          setAgents([]);
          setArea(null);
        }
      })
      .finally(() => ticket === latest.current && setStatus('ready'));
  }, [search, api, place, allAgents]);

  const submit = (e: FormEvent) => {
    e.preventDefault();
    setSearch((s) => ({ text: text.trim(), n: s.n + 1 }));
    emit(host, 'exp-agent-search', { query: text.trim() });
  };
  const openAgent = (agent: Agent) => {
    setOpen(agent);
    emit(host, 'exp-agent-open', { id: agent.id, name: agent.name });
  };

  // `max` agents until "Show all agents" (a new search or place starts short again)
  const [expanded, setExpanded] = useState(false);
  useEffect(() => setExpanded(false), [search, place, max]);
  const shown = max > 0 && !expanded ? agents.slice(0, max) : agents;
  const headingId = `${id}-count`;
  const count = useMemo(() => formatCount(agents.length), [agents.length]);
  return (
    <section className="flex flex-col gap-6" part="directory" aria-labelledby={showTitle ? `${id}-title` : headingId}>
      {showTitle ? (
        <header className="text-center flex flex-col gap-2">
          <h2 id={`${id}-title`} className="m-0 text-3xl cq-md:text-4xl font-bold text-ink" part="title">
            {t('agents.title')}
          </h2>
          <p className="m-0 text-ink-muted text-lg" part="subtitle">
            {t('agents.subtitle')}
          </p>
        </header>
      ) : null}
      <form role="search" onSubmit={submit} className="mx-auto w-full max-w-[640px] flex gap-2" part="search">
        <label htmlFor={`${id}-q`} className="exp-sr-only">
          {t('agents.searchLabel')}
        </label>
        <input
          id={`${id}-q`}
          type="search"
          name="q"
          value={text}
          maxLength={100}
          autoComplete="off"
          onChange={(e) => setText(e.target.value)}
          placeholder={t('agents.searchPlaceholder')}
          className="flex-1 min-w-0 h-12 rounded-md border border-line bg-surface px-4 text-base text-ink outline-none focus:border-primary focus:ring-2 focus:ring-primary/30"
        />
        <button
          type="submit"
          className="h-12 inline-flex items-center gap-2 rounded-md bg-primary px-5 font-semibold text-primary-contrast cursor-pointer hover:bg-primary-hover"
          part="search-button"
        >
          <SearchIcon size={18} />
          {t('agents.search')}
        </button>
      </form>
      <div className="flex flex-wrap items-baseline justify-between gap-x-4 gap-y-2">
        <h3 id={headingId} className="m-0 text-xl font-semibold text-ink" part="count" aria-live="polite">
          {status === 'loading'
            ? t('common.loading')
            : area?.serving
              ? t('agents.serving', { count: agents.length, formatted: count, place: area.name })
              : t('agents.count', { count: agents.length, formatted: count })}
        </h3>
        {status === 'ready' && area?.serving ? (
          <button
            type="button"
            onClick={() => {
              // every agent, not only the first `max`
              setAllAgents(true);
              setExpanded(true);
            }}
            className="p-0 border-0 bg-transparent text-primary font-semibold cursor-pointer hover:underline"
            part="all-agents"
          >
            {t('agents.showAll')}
          </button>
        ) : null}
      </div>
      {status === 'ready' && area && !area.serving ? (
        <p className="m-0 text-ink-muted" part="area-note">
          {t('agents.noneServing', { place: area.name })}
        </p>
      ) : null}
      {status === 'ready' && agents.length === 0 ? (
        <p
          className="m-0 rounded-brand border border-dashed border-line bg-surface px-6 py-12 text-center text-ink-muted"
          part="empty"
        >
          {t('agents.none')}
        </p>
      ) : (
        <ul
          className={`list-none m-0 p-0 grid grid-cols-2 cq-md:grid-cols-3 cq-lg:grid-cols-4 gap-4 cq-md:gap-6 ${status === 'loading' ? 'opacity-60' : ''}`}
          aria-labelledby={headingId}
          aria-busy={status === 'loading'}
        >
          {shown.map((agent) => (
            <li key={agent.id} className="exp-offscreen-agent">
              <button
                type="button"
                onClick={() => openAgent(agent)}
                // as high as the row (a name on two lines makes its neighbour's card no shorter)
                className="group w-full h-full text-left rounded-brand border border-line bg-surface p-0 overflow-hidden cursor-pointer shadow-sm hover:shadow-md transition-shadow flex flex-col"
                part="agent-card"
              >
                <AgentPhoto photo={agent.photo} name="" className="aspect-square w-full" />
                <span className="block px-3 py-3">
                  <span className="font-semibold text-ink line-clamp-3 break-words group-hover:underline">
                    {agent.name || t('agent.defaultName')}
                  </span>
                  {agent.location ? (
                    <span className="block text-sm text-ink-muted truncate">{agent.location}</span>
                  ) : null}
                </span>
              </button>
            </li>
          ))}
        </ul>
      )}
      {status === 'ready' && shown.length < agents.length ? (
        <button
          type="button"
          onClick={() => setExpanded(true)}
          className="self-center h-12 inline-flex items-center rounded-md border border-line bg-surface px-5 font-semibold text-ink cursor-pointer hover:border-primary"
          part="show-all"
        >
          {t('agents.showAll')}
        </button>
      ) : null}
      <AgentDialog agent={open} onClose={() => setOpen(null)} profileUrl={profileUrl} />
    </section>
  );
}

function AgentDialog({ agent, onClose, profileUrl }: { agent: Agent | null; onClose: () => void; profileUrl: string }) {
  const { t } = useElement();
  const titleId = useId();
  const tel = agent?.phone ? telHref(agent.phone) : '';
  const action =
    'inline-flex flex-1 items-center justify-center gap-2 rounded-md px-4 py-2.5 font-semibold no-underline';
  return (
    <Dialog open={Boolean(agent)} onClose={onClose} labelledBy={titleId} className="max-w-[440px]" part="agent-dialog">
      {agent ? (
        <div className="relative flex flex-col items-center gap-4 p-6 text-center">
          <DialogClose onClose={onClose} className="absolute right-3 top-3" />
          <AgentPhoto photo={agent.photo} name={agent.name} className="w-32 h-32 rounded-full" />
          <div>
            <h2 id={titleId} className="m-0 text-2xl font-bold text-ink">
              {agent.name || t('agent.defaultName')}
            </h2>
            {agent.location ? <p className="m-0 text-ink-muted">{agent.location}</p> : null}
          </div>
          <ul className="list-none m-0 p-0 flex flex-col gap-1.5 text-[15px]">
            {agent.phone ? (
              <li>
                <a href={tel} className="inline-flex items-center gap-2 text-primary hover:underline">
                  <PhoneIcon size={16} />
                  {agent.phone}
                </a>
              </li>
            ) : null}
            {agent.email ? (
              <li>
                <a
                  href={`mailto:${agent.email}`}
                  className="inline-flex items-center gap-2 text-primary hover:underline break-all"
                >
                  <MailIcon size={16} />
                  {agent.email}
                </a>
              </li>
            ) : null}
          </ul>
          <div className="flex w-full gap-2">
            {agent.phone ? (
              <a href={tel} className={`${action} bg-primary text-primary-contrast hover:bg-primary-hover`}>
                <PhoneIcon size={18} />
                {t('agents.call')}
              </a>
            ) : null}
            {agent.email ? (
              <a
                href={`mailto:${agent.email}`}
                className={`${action} border border-line bg-surface text-ink hover:bg-surface-subtle`}
              >
                <MailIcon size={18} />
                {t('agents.email')}
              </a>
            ) : null}
          </div>
          <a
            href={profileHref(profileUrl, agent.id)}
            className="text-primary font-semibold hover:underline"
            part="profile-link"
          >
            {t('agents.viewProfile')}
          </a>
        </div>
      ) : null}
    </Dialog>
  );
}
