/**
 * Defaults of the server-side settings, one place for our server (server/config.ts) and the
 * deployed Deno function alike. Each can be changed by the environment variable named beside it.
 */
export const DEFAULTS = {
  /** SMTP_FROM */
  mailFrom: '"eXp Realty Ecuador" <no-reply@expecuador.example>',
  /** TEAM_INBOX: receives inquiries that have no known agent, and new-alert notices */
  teamInbox: 'equipo@expecuador.example',
  /** INQUIRY_RATE_LIMIT: inquiries per client per window */
  inquiryRateLimit: 5,
  inquiryRateWindowSeconds: 60,
  /** ALERT_RATE_LIMIT: alert requests per client per window */
  alertRateLimit: 5,
  alertRateWindowSeconds: 60,
  /** ALERTS_INTERVAL: seconds between two runs of the alert job in our server */
  alertsIntervalSeconds: 60,
  /** ALERTS_SETTLE: an alert's window ends this many seconds before the run (see alerts/run.ts) */
  alertsSettleSeconds: 30,
  /**
   * Time limits of statements (docs/architecture.md "Deadlines and fair shares"): the public API's
   * (the `anon` role's statement_timeout where the role sets none: Supabase's 3 s), privileged work
   * done for a request (an inquiry, the outbox, the alert job), the server's own jobs (migrations,
   * imports).
   */
  anonStatementTimeoutMs: 3000,
  serviceStatementTimeoutMs: 10_000,
  jobStatementTimeoutMs: 15 * 60_000,
  /**
   * REQUEST_CPU_BUDGET_MS: CPU a deployed function's request may spend on work that can wait for the next call (mail to
   * send, searches to go through): half of Supabase's 2 s limit (core/functions/cpu-budget.ts).
   */
  requestCpuBudgetMs: 1000,
  /** ALLOWED_ORIGINS */
  allowedOrigins: '*' as '*' | string[],
} as const;
