/**
 * saved-searches in the local server: the shared handler over our database (docs/decisions.md #23).
 * Its mails wait in the outbox, delivered by the server's outbox service (server/mail/).
 */
import { createAlertsHandler, type AlertsConfig } from '../../supabase/functions/_shared/alerts/handler.ts';
import { isConnectionError } from '../../supabase/functions/_shared/db/pg.ts';
import { DEFAULTS } from '../../supabase/functions/_shared/defaults.ts';
import type { TransactionalSql } from '../../supabase/functions/_shared/sql.ts';
import { DatabaseUnavailableError } from '../db/database.ts';
import type { FunctionHandler } from './router.ts';

export const DEFAULT_ALERTS_CONFIG: AlertsConfig = {
  teamInbox: DEFAULTS.teamInbox,
  allowedOrigins: DEFAULTS.allowedOrigins,
  rateLimit: { max: DEFAULTS.alertRateLimit, windowSeconds: DEFAULTS.alertRateWindowSeconds },
};

export function createAlertsFunction(sql: TransactionalSql, config: Partial<AlertsConfig>, onQueued: () => void): FunctionHandler {
  const handler = createAlertsHandler({
    sql,
    config: { ...DEFAULT_ALERTS_CONFIG, ...config },
    onQueued,
    isUnavailable: (error) => error instanceof DatabaseUnavailableError || isConnectionError(error),
  });
  return (request, context) => handler(request, context);
}
