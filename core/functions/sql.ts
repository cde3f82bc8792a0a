/**
 * What the shared server code (the inquiry handler, the outbox, the alerts) needs from a database:
 * parameterised queries and transactions. pg in our server, npm:pg in the Deno function.
 */
export interface Sql {
  query<T extends Record<string, unknown> = Record<string, unknown>>(
    sql: string,
    params?: readonly unknown[],
  ): Promise<T[]>;
}

export interface TransactionalSql extends Sql {
  transaction<T>(fn: (tx: Sql) => Promise<T>): Promise<T>;
}
