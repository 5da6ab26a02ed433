import type { ClientConfig, PoolConfig } from 'pg';
import type { PostgresConnection } from '../config.ts';

/**
 * What every connection an instance opens to PostgreSQL is given (issue 38 item 4), in one place
 * for the pools (db/database.ts), the job queue's pool (lib/jobs.pg.ts) and the workbook worker's
 * own client (lib/workbook.worker.ts). No driver is loaded here: the worker imports it.
 *
 * - `connectionTimeoutMillis`: a pool's wait for a free connection, and the opening of a new
 *   one, fail after DATABASE_POOL_WAIT_SECONDS ("timeout exceeded when trying to connect",
 *   transient: a call answers 503 `databaseUnavailable`, a job runs again) instead of waiting
 *   forever behind a full pool or an address that does not answer.
 * - `statement_timeout` and `idle_in_transaction_session_timeout` as startup parameters: set
 *   with the connection, on that connection only. A `SET` after connecting is not that through a
 *   transaction pooler: it runs on whichever server connection the pooler lends for that one
 *   statement, and stays there for the next client. PgBouncer refuses unknown startup
 *   parameters ("unsupported startup parameter: statement_timeout") unless they are listed in its
 *   `ignore_startup_parameters`, and then drops them: the README says how its own server
 *   connections get the same values (`connect_query`).
 */
export function pgClientOptions(c: PostgresConnection): ClientConfig & Pick<PoolConfig, 'connectionTimeoutMillis'> {
  return {
    connectionString: c.url,
    ...(c.applicationName ? { application_name: c.applicationName } : {}),
    ...(c.poolWaitMs ? { connectionTimeoutMillis: c.poolWaitMs } : {}),
    ...(c.statementTimeoutMs ? { statement_timeout: c.statementTimeoutMs } : {}),
    ...(c.idleInTransactionMs ? { idle_in_transaction_session_timeout: c.idleInTransactionMs } : {}),
  };
}

/**
 * The direct connection's (migrations, start-up locks): the server itself, and none of the two
 * limits — an online index build (db/online-index.ts) may take long. Nothing is sent to lift a
 * limit the server or the role sets: that would need `options`, which a session-mode pooler
 * given as the default (DATABASE_URL) refuses. The same wait for a connection to open.
 */
export function pgDirectOptions(c: PostgresConnection): ClientConfig & Pick<PoolConfig, 'connectionTimeoutMillis'> {
  return {
    connectionString: c.directUrl ?? c.url,
    ...(c.poolWaitMs ? { connectionTimeoutMillis: c.poolWaitMs } : {}),
  };
}
