/**
 * send-property-inquiry in the local server: the shared handler over our database. Its e-mail is
 * queued with the inquiry and delivered by the server's outbox service (server/mail/).
 */
import { createInquiryHandler, type InquiryConfig } from '../../core/functions/inquiry/handler.ts';
import { isConnectionError } from '../../core/functions/db/pg.ts';
import { DEFAULTS } from '../../core/functions/defaults.ts';
import type { TransactionalSql } from '../../core/functions/sql.ts';
import { DatabaseUnavailableError } from '../db/database.ts';
import type { FunctionHandler } from './router.ts';

export const DEFAULT_INQUIRY_CONFIG: InquiryConfig = {
  teamInbox: DEFAULTS.teamInbox,
  allowedOrigins: DEFAULTS.allowedOrigins,
  rateLimit: { max: DEFAULTS.inquiryRateLimit, windowSeconds: DEFAULTS.inquiryRateWindowSeconds },
};

export function createInquiryFunction(sql: TransactionalSql, config: Partial<InquiryConfig>, onStored: () => void): FunctionHandler {
  const handler = createInquiryHandler({
    sql,
    config: { ...DEFAULT_INQUIRY_CONFIG, ...config },
    onStored,
    isUnavailable: (error) => error instanceof DatabaseUnavailableError || isConnectionError(error),
  });
  return (request, context) => handler(request, context);
}
