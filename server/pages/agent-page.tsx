/**
 * An agent's own page: the agent in the HTML (name, photo, location, about, contacts) for crawlers
 * and link previews, inside <exp-agent-profile>, which shows it until it has drawn the full profile
 * (sections, listings, 'Contact Agent'). An unknown id is a real 404.
 */
import type { Translate } from '../../core/translate.ts';
import { languageNames, toAgentProfile, type AgentProfile } from '../../core/protocol/agent.ts';
import type { AgentProfileRecord } from '../../core/protocol/records.ts';
import { agentPath, localizedPath } from '../../core/routes.ts';
import { agentJsonLd } from '../../core/protocol/structured-data.ts';
import type { HeadInfo } from './head.tsx';
import { ContactItems, excerpt, renderBody } from './html.tsx';
import type { Lang } from '../../core/lang.ts';

export interface AgentPageContext {
  lang: Lang;
  t: Translate;
  origin: string;
  mediaBase: string;
  imageUrl: (a: AgentProfile) => string;
  /** the brokerage's name (the site's og:site_name) */
  brand: string;
}

export function renderAgent(
  record: AgentProfileRecord | null,
  id: string,
  ctx: AgentPageContext,
): { head: HeadInfo; body: string; status: number } {
  const { t, lang, origin } = ctx;
  const back = localizedPath('/findanagent', lang);
  if (!record) {
    const { body, hoisted } = renderBody(
      <exp-agent-profile agent-id={id}>
        <section className="missing">
          <h1>{t('profile.notFound')}</h1>
          <p>
            <a href={back}>{t('profile.backToSearch')}</a>
          </p>
        </section>
      </exp-agent-profile>,
    );
    return { status: 404, head: { robots: 'noindex', hoisted }, body };
  }
  const a = toAgentProfile(record, ctx.mediaBase, lang);
  const route = agentPath(a.id);
  const url = new URL(localizedPath(route, lang), origin).href;
  const about = a.about.replace(/\s+/g, ' ').trim();
  const description = about ? excerpt(about) : t('site.meta.agent.description');
  const { body, hoisted } = renderBody(
    <exp-agent-profile agent-id={a.id}>
      <article className="agent-page" aria-labelledby="agent-name">
        <p>
          <a href={back}>{t('profile.returnToSearch')}</a>
        </p>
        {a.photo ? (
          <img src={a.photo} alt="" width={160} height={160} className="agent-page__photo" fetchPriority="high" />
        ) : null}
        <h1 id="agent-name">{a.name}</h1>
        {a.location ? <p className="agent-page__place">{a.location}</p> : null}
        <ul className="agent-page__contact">
          <ContactItems email={a.email} phone={a.phone} />
        </ul>
        {about ? (
          <section>
            <h2>{t('profile.about')}</h2>
            <p>{a.about}</p>
          </section>
        ) : null}
        {a.languages.length ? (
          <section>
            <h2>{t('profile.languages')}</h2>
            <p>{languageNames(a.languages, t).join(', ')}</p>
          </section>
        ) : null}
      </article>
    </exp-agent-profile>,
  );
  return {
    status: 200,
    head: {
      route,
      title: t('site.meta.agent.titleNamed', { name: a.name }),
      description,
      ogType: 'profile',
      image: { url: ctx.imageUrl(a), width: 1200, height: 630, alt: a.name },
      jsonLd: [
        agentJsonLd(a, url, {
          jobTitle: t('agent.jobTitle'),
          brokerage: { name: ctx.brand, url: new URL(localizedPath('/', lang), origin).href },
        }),
      ],
      hoisted,
    },
    body,
  };
}
