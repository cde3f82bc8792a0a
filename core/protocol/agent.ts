/**
 * An agent row as the directory and the profile show it (docs/product.md §3): the name joined and
 * trimmed, the picture trimmed (else the placeholder), contact details, and for the profile the
 * lists and links, links kept only when they are http(s).
 */
import { safeLinkUrl, safeMediaUrl } from './safe-urls.ts';
import type { AgentProfileRecord, AgentRecord } from './records.ts';
import type { Translate } from '../translate.ts';
import { fold } from './text.ts';

/** What the directory reads of an agent (AgentRecord), and what a profile reads (AgentProfileRecord). */
export const AGENT_COLUMNS = 'id,first_name,last_name,email,phone,picture,country_code';
export const AGENT_PROFILE_COLUMNS = `${AGENT_COLUMNS},location,about,languages,specializations,certifications,locations_served,facebook,instagram,linkedin,website,about_es`;

/**
 * The directory's first answer in its page's HTML (server/pages/agent-list.tsx): a
 * `<script type="application/json">` with this attribute inside <exp-agent-directory>, the rows of
 * AGENT_COLUMNS in id order, which the element starts from instead of asking again.
 */
export const AGENTS_ANSWER_MARK = 'data-exp-agents';

export interface Agent {
  id: string;
  name: string;
  photo: string | undefined;
  /** empty in the directory (docs/product.md §3); the profile's own location otherwise */
  location: string;
  email: string;
  phone: string;
}

export interface AgentProfile extends Agent {
  firstName: string;
  lastName: string;
  /** her "about" in the page's language (the other language's when she wrote only that) */
  about: string;
  languages: string[];
  specializations: string[];
  certifications: string[];
  locationsServed: string[];
  links: Array<{ kind: 'website' | 'facebook' | 'instagram' | 'linkedin'; url: string }>;
}

const clean = (v: unknown) => (typeof v === 'string' ? v.trim() : '');
const list = (v: unknown) => (Array.isArray(v) ? v.map(clean).filter(Boolean) : []);

export function toAgent(row: AgentRecord, apiBase: string): Agent {
  return {
    id: String(row.id),
    name: [clean(row.first_name), clean(row.last_name)].filter(Boolean).join(' ').trim(),
    photo: safeMediaUrl(clean(row.picture), apiBase),
    location: '',
    email: clean(row.email),
    phone: clean(row.phone),
  };
}

export function toAgentProfile(row: AgentProfileRecord, apiBase: string, lang: 'en' | 'es' = 'en'): AgentProfile {
  const links: AgentProfile['links'] = [];
  for (const kind of ['website', 'facebook', 'instagram', 'linkedin'] as const) {
    const url = safeLinkUrl(row[kind]);
    if (url) links.push({ kind, url });
  }
  return {
    ...toAgent(row, apiBase),
    location: clean(row.location),
    firstName: clean(row.first_name),
    lastName: clean(row.last_name),
    about: lang === 'es' ? clean(row.about_es) || clean(row.about) : clean(row.about) || clean(row.about_es),
    languages: list(row.languages),
    specializations: list(row.specializations),
    certifications: list(row.certifications),
    locationsServed: list(row.locations_served),
    links,
  };
}

/** Where an agent's profile is: a template with {id} (our site's /findanagent/{id} by default). */
export function profileHref(template: string, id: string): string {
  return template.replace('{id}', () => encodeURIComponent(id));
}

/**
 * Her languages as the page's language names them ("Inglés, Español" on a Spanish page): she writes
 * them in either language, and a language the locale files do not name is shown as she wrote it.
 */
export function languageNames(languages: string[], t: Translate): string[] {
  return languages.map((written) => {
    const key = `profile.languageNames.${fold(written)
      .toLowerCase()
      .replace(/[^a-z]/g, '')}`;
    const named = t(key);
    return named === key ? written : named;
  });
}
