/**
 * Where a lead came from, as the team's mails say it (core/protocol/attribution.ts keeps it): here,
 * with the mails, and not in core/protocol/, so that no element's texts carry the mails' (an
 * element's texts are the groups its files name: scripts/widget-texts.ts).
 */
import type { UtmKey } from '../../protocol/attribution.ts';

/**
 * The lines a mail shows about where a lead came from: a label (`label('mail.attribution.site')`,
 * the mail's own texts: core/functions/outbox/bilingual.ts) and its value, for what is known.
 */
export function attributionLines(
  a: {
    origin: string | null;
    page: string | null;
    element: string | null;
    utm: Partial<Record<UtmKey, string>> | null;
  },
  label: (key: string) => string,
): Array<[string, string]> {
  const utm = a.utm ?? {};
  const campaign = [utm.utm_campaign, utm.utm_source, utm.utm_medium].filter(Boolean).join(' / ');
  return (
    [
      ['site', a.origin ?? ''],
      ['page', a.page ?? ''],
      ['element', a.element ?? ''],
      ['campaign', campaign],
    ] as Array<[string, string]>
  )
    .filter(([, v]) => v)
    .map(([k, v]) => [label(`mail.attribution.${k}`), v]);
}
