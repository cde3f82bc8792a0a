/**
 * The privacy notice's shape (docs/privacy.md): its version (a change to its words is a new one, so
 * a consent given can say which it was given under), the items Ecuador's LOPDP (Art. 12) asks it to
 * tell, in the order the page tells them, and the operator's settings it names.
 */
export const PRIVACY_NOTICE = { version: '1.0', since: '2026-12-02' } as const;

/**
 * The notice's sections (`site.privacy.notice.sections.<key>`), one per item of Art. 12: who is
 * responsible and its officer, the database, the purposes and their legal basis, the processing,
 * where the data comes from and any further use, the recipients and transfers abroad, how long it
 * is kept, what refusing or giving wrong data means, withdrawing consent, the rights, portability,
 * how to use them, complaints to the authority, and automated decisions.
 */
export const NOTICE_SECTIONS = [
  'controller',
  'dpo',
  'database',
  'purposes',
  'legalBasis',
  'processing',
  'origin',
  'further',
  'recipients',
  'transfers',
  'retention',
  'consequences',
  'accuracy',
  'consent',
  'rights',
  'portability',
  'howTo',
  'complaints',
  'automated',
] as const;

/** Who the controller is and how long each kind of data is kept: configuration (docs/configuration.md "Privacy"). */
export interface PrivacySettings {
  controller: string;
  address: string;
  email: string;
  phone: string;
  /** the data protection officer's name and contact, where one is appointed */
  dpo?: string | undefined;
  retention: { leadsMonths: number; mailsDays: number; pendingDays: number };
}

/** The retention periods a reviewer would accept, unless the operator sets others. */
export const RETENTION_DEFAULTS = { leadsMonths: 24, mailsDays: 90, pendingDays: 30 } as const;

/**
 * What a visitor may consent to (docs/privacy.md "Consents"), each a box of its own, never ticked
 * in advance: mail about other homes and the brokerage's news, the monthly report of her home's
 * value, and other agents of the brokerage contacting her. Answering what she asked for needs none.
 * A box's words are `consent.<purpose>` in the locale files; what was stored is what she read.
 */
export type ConsentPurpose = 'marketing' | 'home_report' | 'other_agents';

/** The boxes an inquiry (or a visit request, or a seller's lead) may carry; the home report comes with its own request. */
export const LEAD_CONSENTS = ['marketing', 'other_agents'] as const satisfies readonly ConsentPurpose[];
export type LeadConsent = (typeof LEAD_CONSENTS)[number];

/** Where a consent's one-click withdrawal link lands (its token in `?token=`). */
export const CONSENT_PATH = '/privacy/consent';
