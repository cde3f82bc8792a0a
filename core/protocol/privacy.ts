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
