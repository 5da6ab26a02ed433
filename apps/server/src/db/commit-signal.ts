import type { AbortableOperationOptions, CompiledQuery, DatabaseConnection, Dialect, Driver, Kysely } from 'kysely';

/**
 * "A row of this table has committed, in this process": what an in-process reader of an outbox
 * needs to run now rather than at its next poll (the webhook relay; docs/decisions/2026-12-07-webhook-wake.md).
 * The writers of the outbox are the order's own transactions (domain/order-events.ts), which have
 * no queue and no hook of their own, and Kysely has no "after commit": so the driver tells. It
 * notes the tables a connection inserts into, and names them once the statement (outside a
 * transaction) or the transaction's COMMIT has returned, never before: a listener that reads then
 * sees the rows. A rollback names nothing. A savepoint rolled back still names its tables at the
 * commit: a signal is a hint to look, never a promise that a row is there.
 */
export type CommitListener = (tables: ReadonlySet<string>) => void;

const INSERT_INTO = /^\s*insert\s+(?:or\s+\w+\s+)?into\s+"?(\w+)"?/i;

interface Signal {
  listeners: Set<CommitListener>;
}

/** The dialect, with its driver telling `signal` what each commit inserted into. */
export function signallingDialect(inner: Dialect): { dialect: Dialect; signal: Signal } {
  const signal: Signal = { listeners: new Set() };
  const tell = (tables: Set<string>) => {
    if (!tables.size) return;
    const named = new Set(tables);
    tables.clear();
    for (const l of signal.listeners) {
      try {
        l(named);
      } catch {
        // A listener's failure is its own: the commit it heard of stands.
      }
    }
  };
  const state = new WeakMap<DatabaseConnection, { inTransaction: boolean; tables: Set<string> }>();
  const watch = (conn: DatabaseConnection) => {
    if (state.has(conn)) return state.get(conn)!;
    const s = { inTransaction: false, tables: new Set<string>() };
    state.set(conn, s);
    const execute = conn.executeQuery.bind(conn);
    conn.executeQuery = async <R>(query: CompiledQuery, options?: AbortableOperationOptions) => {
      const result = await execute<R>(query, options);
      const table = INSERT_INTO.exec(query.sql)?.[1];
      if (table) {
        s.tables.add(table);
        if (!s.inTransaction) tell(s.tables);
      }
      return result;
    };
    return s;
  };
  const driverOf = (d: Driver): Driver => ({
    init: (...a) => d.init(...a),
    acquireConnection: async (...a) => {
      const conn = await d.acquireConnection(...a);
      watch(conn);
      return conn;
    },
    beginTransaction: async (conn, settings) => {
      await d.beginTransaction(conn, settings);
      const s = watch(conn);
      s.inTransaction = true;
      s.tables.clear();
    },
    commitTransaction: async (conn) => {
      const s = watch(conn);
      try {
        await d.commitTransaction(conn);
      } catch (err) {
        s.tables.clear();
        throw err;
      } finally {
        s.inTransaction = false;
      }
      tell(s.tables);
    },
    rollbackTransaction: async (conn) => {
      const s = watch(conn);
      s.tables.clear();
      try {
        await d.rollbackTransaction(conn);
      } finally {
        s.inTransaction = false;
      }
    },
    ...(d.savepoint && { savepoint: d.savepoint.bind(d) }),
    ...(d.rollbackToSavepoint && { rollbackToSavepoint: d.rollbackToSavepoint.bind(d) }),
    ...(d.releaseSavepoint && { releaseSavepoint: d.releaseSavepoint.bind(d) }),
    releaseConnection: (...a) => d.releaseConnection(...a),
    destroy: (...a) => d.destroy(...a),
  });
  const dialect: Dialect = {
    createAdapter: () => inner.createAdapter(),
    createDriver: () => driverOf(inner.createDriver()),
    createIntrospector: (db) => inner.createIntrospector(db),
    createQueryCompiler: () => inner.createQueryCompiler(),
  };
  return { dialect, signal };
}

const signals = new WeakMap<Kysely<any>, Signal>();

export function registerSignal(db: Kysely<any>, signal: Signal): void {
  signals.set(db, signal);
}

/**
 * Calls `listener` after each commit in this process that inserted into `table`; returns the
 * unsubscribe. A database made without the signal (a test's own Kysely) never calls it.
 */
export function onCommitted(db: Kysely<any>, table: string, listener: () => void): () => void {
  const signal = signals.get(db);
  if (!signal) return () => {};
  const l: CommitListener = (tables) => {
    if (tables.has(table)) listener();
  };
  signal.listeners.add(l);
  return () => void signal.listeners.delete(l);
}
