/**
 * Rows as the public API returns them: what the widgets read and what the seed and the tests
 * write and expect, one description for all.
 */

/** An agent in the directory (public.agents; the columns the public key may read). */
export interface AgentRecord {
  id: number;
  first_name: string | null;
  last_name: string | null;
  email: string | null;
  phone: string | null;
  picture: string | null;
  country_code: string | null;
}

/** An agent with the profile columns (decision 6). */
export interface AgentProfileRecord extends AgentRecord {
  location: string | null;
  about: string | null;
  /** her "about" in Spanish (`about` is the English, or her only one) */
  about_es?: string | null;
  languages: string[] | null;
  specializations: string[] | null;
  certifications: string[] | null;
  locations_served: string[] | null;
  facebook: string | null;
  instagram: string | null;
  linkedin: string | null;
  website: string | null;
}
