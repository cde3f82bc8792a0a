/**
 * send-property-inquiry, saved-searches (docs/decisions.md #23), visits (docs/visits.md), listing-events
 * (docs/agent-area.md) and privacy (docs/privacy.md) in the local server: the
 * shared handlers (core/functions/) over our database. Their mails are queued with what they store
 * and delivered by the server's outbox service (server/mail/).
 */
import { createAlertsHandler, type AlertsConfig } from '../../../core/functions/alerts/handler.ts';
import { gateByClient } from '../../../core/functions/client-gate.ts';
import { isConnectionError } from '../../../core/functions/db/pg.ts';
import { DEFAULTS } from '../../../core/functions/defaults.ts';
import { createInquiryHandler, type InquiryConfig } from '../../../core/functions/inquiry/handler.ts';
import { createVisitsHandler } from '../../../core/functions/visits/handler.ts';
import { createListingEventsHandler } from '../../../core/functions/listing-events/handler.ts';
import { createPrivacyHandler } from '../../../core/functions/privacy/handler.ts';
import type { TransactionalSql } from '../../../core/functions/sql.ts';
import type { Texts } from '../../../core/functions/privacy/consents.ts';
import { DatabaseUnavailableError } from '../../db/database.ts';
import type { FunctionHandler } from './router.ts';

const policy = (max: number, windowSeconds: number) => ({
  teamInbox: DEFAULTS.teamInbox,
  allowedOrigins: DEFAULTS.allowedOrigins,
  rateLimit: { max, windowSeconds },
});
const DEFAULT_INQUIRY_CONFIG: InquiryConfig = policy(DEFAULTS.inquiryRateLimit, DEFAULTS.inquiryRateWindowSeconds);
export const DEFAULT_ALERTS_CONFIG: AlertsConfig = policy(DEFAULTS.alertRateLimit, DEFAULTS.alertRateWindowSeconds);

const isUnavailable = (error: unknown) => error instanceof DatabaseUnavailableError || isConnectionError(error);

/** The functions by their deployed names; `deliver` is called when a mail was queued. */
export function localFunctions(
  sql: TransactionalSql,
  config: { inquiry?: Partial<InquiryConfig>; alerts?: Partial<AlertsConfig> },
  deliver: () => void,
  texts: Texts,
): Record<string, FunctionHandler> {
  // each client's share of the functions' work, as a deployed function has it (client-gate.ts)
  return {
    'send-property-inquiry': gateByClient(
      createInquiryHandler({
        sql,
        config: { ...DEFAULT_INQUIRY_CONFIG, ...config.inquiry },
        texts,
        onStored: deliver,
        isUnavailable,
      }),
    ),
    'saved-searches': gateByClient(
      createAlertsHandler({
        sql,
        config: { ...DEFAULT_ALERTS_CONFIG, ...config.alerts },
        texts,
        onQueued: deliver,
        isUnavailable,
      }),
    ),
    visits: gateByClient(
      createVisitsHandler({
        sql,
        config: { ...DEFAULT_ALERTS_CONFIG, ...config.alerts },
        onQueued: deliver,
        isUnavailable,
      }),
    ),
    // a listing's page view or save, counted for its agent's figures (counts only)
    // a visitor's data on her request: the link, what we keep, correction and erasure (docs/privacy.md)
    privacy: gateByClient(
      createPrivacyHandler({
        sql,
        config: { ...DEFAULT_ALERTS_CONFIG, ...config.alerts },
        onQueued: deliver,
        isUnavailable,
      }),
    ),
    'listing-events': gateByClient(
      createListingEventsHandler({
        sql,
        config: { allowedOrigins: config.alerts?.allowedOrigins ?? DEFAULT_ALERTS_CONFIG.allowedOrigins },
        isUnavailable,
      }),
    ),
  };
}
