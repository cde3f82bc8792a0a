/**
 * The agents' directory in its page's HTML (docs/product.md "Agent directory"): every agent the
 * element lists first, as links to their own pages, with the count; and the answer itself (a JSON
 * script), which <exp-agent-directory> starts from instead of asking again
 * (core/protocol/agent.ts AGENTS_ANSWER_MARK). A crawler, a link preview and a visitor without
 * JavaScript read it; a visitor with it sees it until the element has drawn.
 */
import type { Lang } from '../../core/lang.ts';
import { AGENTS_ANSWER_MARK, toAgent, type Agent } from '../../core/protocol/agent.ts';
import { formatCount } from '../../core/protocol/format.ts';
import { agentPath } from '../../core/routes.ts';
import type { Translate } from '../../core/translate.ts';
import { PageAnswer, renderBody } from './html.tsx';
import type { SiteData } from './site-data.ts';

/** Where the element's own content goes in findanagent.html. */
export const AGENTS_MARK = '<!--exp:agents-->';

/** The directory as HTML for inside the element (its data call may fail: listed-pages.ts). */
export async function agentListHtml(
  data: SiteData,
  ctx: { t: Translate; lang: Lang; mediaBase: string },
): Promise<string> {
  const rows = await data.agents();
  return renderBody(
    <>
      <AgentList agents={rows.map((r) => toAgent(r, ctx.mediaBase))} t={ctx.t} lang={ctx.lang} />
      <PageAnswer mark={AGENTS_ANSWER_MARK} value={rows} />
    </>,
  ).body;
}

function AgentList({ agents, t, lang }: { agents: Agent[]; t: Translate; lang: Lang }) {
  return (
    <section className="agent-list" aria-labelledby="agent-list-title">
      <h1 id="agent-list-title">{t('agents.title')}</h1>
      <p className="agent-list__lead">{t('agents.subtitle')}</p>
      <h2>{t('agents.count', { count: agents.length, formatted: formatCount(agents.length) })}</h2>
      {agents.length ? (
        <ul className="listing-tiles agent-tiles">
          {agents.map((a) => (
            <li key={a.id}>
              <a className="listing-tile__link" href={agentPath(a.id, lang)}>
                {/* for readers without JavaScript only: the element's cards bring their own photos, so a
                    phone downloads each once (as the listings' tiles: listing-tile.tsx inElement) */}
                <span className="listing-tile__photo">
                  {a.photo ? (
                    <noscript>
                      <img src={a.photo} alt="" width={300} height={300} loading="lazy" decoding="async" />
                    </noscript>
                  ) : null}
                </span>
                <span className="listing-tile__title">{a.name || t('agent.defaultName')}</span>
              </a>
            </li>
          ))}
        </ul>
      ) : (
        <p>{t('agents.none')}</p>
      )}
    </section>
  );
}
