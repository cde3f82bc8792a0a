/**
 * saved-searches in the local server: the shared handler over our database (docs/decisions.md #23).
 * Its mails wait in the outbox, delivered by the server's outbox service (server/mail/).
 */
import { createAlertsHandler, type AlertsConfig } from '../../core/functions/alerts/handler.ts';
import { isConnectionError } from '../../core/functions/db/pg.ts';
import { DEFAULTS } from '../../core/functions/defaults.ts';
import type { TransactionalSql } from '../../core/functions/sql.ts';
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
