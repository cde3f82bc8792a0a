/**
 * Every kind of mail the outbox holds, with its composer: one list for our server and every
 * deployed function, since any of them may deliver any queued mail (a worker without the composer
 * of a kind would fail that mail for good).
 */
import { alertComposers, type AlertMailOptions } from '../alerts/mail.ts';
import { marketComposer } from '../alerts/market-mail.ts';
import { homeReportComposer } from '../alerts/home-mail.ts';
import { inquiryComposers } from '../inquiry/mail.ts';
import { followUpComposer } from '../inquiry/follow-up-mail.ts';
import { visitComposers } from '../visits/mail.ts';
import { privacyComposers } from '../privacy/mail.ts';
import type { Composer } from './worker.ts';

export type MailSetup = AlertMailOptions & { teamInbox: string };

export function allComposers(setup: MailSetup): Record<string, Composer> {
  return {
    ...inquiryComposers(setup),
    'follow-ups': followUpComposer(setup),
    ...alertComposers(setup),
    'market-report': marketComposer(setup),
    'home-report': homeReportComposer(setup),
    ...visitComposers(setup),
    ...privacyComposers(setup),
  };
}
