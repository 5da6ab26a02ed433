import { DatabaseSync, type StatementSync } from 'node:sqlite';
import {
  CompiledQuery,
  type DatabaseConnection,
  type Dialect,
  type Driver,
  type QueryResult,
  SqliteAdapter,
  SqliteIntrospector,
  SqliteQueryCompiler,
  type Kysely,
} from 'kysely';
import { nextTurn } from './next-turn.ts';
import { Checkpointer, ReaderThreads, toParam } from './sqlite-threads.ts';

/**
 * Kysely dialect over Node's built-in `node:sqlite` (ARCHITECTURE.md "No native addons").
 * One writer connection serialises writes and transactions; a second connection
 * serves plain reads outside transactions, so in WAL mode a long import does not
 * make another user's list wait for it.
 */
export class NodeSqliteDialect implements Dialect {
  private readonly file: string;
  private readonly threads: number;
  private driver?: NodeSqliteDriver;
  private pool?: ReaderThreads;
  private closed = false;
  constructor(file: string, readerThreads = 0) {
    this.file = file;
    this.threads = readerThreads;
  }
  /**
   * The reader threads (see ReaderThreads), when configured and the database is a file; started
   * on first use (Kysely starts its driver only with the first query), closed with the driver.
   */
  readerThreads(): ReaderThreads | undefined {
    if (this.threads === 0 || this.file === ':memory:') return undefined;
    if (!this.pool && !this.closed) this.pool = new ReaderThreads(this.file, this.threads);
    return this.pool;
  }
  /**
   * SQLite's data_version on the reader connection: it changes whenever any other connection
   * (our writer, another process) commits. Read synchronously on a kept statement, once per event-loop turn: it
   * guards cached reads on every call (db/versioned-cache.ts).
   */
  dataVersion(): number | null {
    return this.driver?.dataVersion() ?? null;
  }
  createAdapter() {
    return new ConcurrentSqliteAdapter();
  }
  createDriver(): Driver {
    this.driver = new NodeSqliteDriver(this.file, async () => {
      this.closed = true;
      await this.pool?.close();
    });
    return this.driver;
  }
  createIntrospector(db: Kysely<unknown>) {
    return new SqliteIntrospector(db);
  }
  createQueryCompiler() {
    return new SqliteQueryCompiler();
  }
}

/**
 * Kysely serialises every query of a dialect whose adapter says it has a single
 * connection; this driver does its own locking (writes and transactions only),
 * so reads must not be queued behind a transaction.
 */
class ConcurrentSqliteAdapter extends SqliteAdapter {
  override get supportsMultipleConnections(): boolean {
    return true;
  }
}

function open(file: string): DatabaseSync {
  const db = new DatabaseSync(file, { enableForeignKeyConstraints: true });
  if (file !== ':memory:') db.exec('PRAGMA journal_mode = WAL');
  db.exec('PRAGMA busy_timeout = 10000; PRAGMA synchronous = NORMAL; PRAGMA foreign_keys = ON');
  return db;
}

class NodeSqliteConnection implements DatabaseConnection {
  // `columns()` builds a metadata object per column on every call (13 µs for a 19-column
  // list, more than the query itself), so whether a statement returns rows is kept with it.
  private readonly cache = new Map<string, { stmt: StatementSync; returnsRows: boolean }>();
  readonly db: DatabaseSync;
  /** Called after every statement run on this connection (the writer: see dataVersion). */
  private readonly afterStatement?: () => void;
  constructor(db: DatabaseSync, afterStatement?: () => void) {
    this.db = db;
    this.afterStatement = afterStatement;
  }

  private prepare(sql: string) {
    let entry = this.cache.get(sql);
    if (!entry) {
      const stmt = this.db.prepare(sql);
      entry = { stmt, returnsRows: stmt.columns().length > 0 };
      if (this.cache.size > 500) this.cache.clear();
      this.cache.set(sql, entry);
    }
    return entry;
  }

  async executeQuery<R>(query: CompiledQuery): Promise<QueryResult<R>> {
    try {
      return this.run<R>(query);
    } finally {
      this.afterStatement?.();
    }
  }

  private run<R>(query: CompiledQuery): QueryResult<R> {
    const { stmt, returnsRows } = this.prepare(query.sql);
    const params = query.parameters.map(toParam);
    if (returnsRows) {
      return { rows: stmt.all(...params) as R[] };
    }
    const { changes, lastInsertRowid } = stmt.run(...params);
    return {
      rows: [],
      numAffectedRows: BigInt(changes),
      insertId: BigInt(lastInsertRowid),
    };
  }

  async *streamQuery<R>(query: CompiledQuery): AsyncIterableIterator<QueryResult<R>> {
    const { stmt } = this.prepare(query.sql);
    for (const row of stmt.iterate(...query.parameters.map(toParam))) {
      yield { rows: [row as R] };
    }
  }
}

/** A promise-chain mutex: Kysely awaits between statements, so the connection must be held. */
class Mutex {
  private tail: Promise<void> = Promise.resolve();
  lock(): Promise<() => void> {
    let release!: () => void;
    const next = new Promise<void>((r) => (release = r));
    const acquired = this.tail.then(() => release);
    this.tail = this.tail.then(() => next);
    return acquired;
  }
}

class NodeSqliteDriver implements Driver {
  private writer?: NodeSqliteConnection;
  private reader?: NodeSqliteConnection;
  private readonly writerLock = new Mutex();
  private readonly file: string;
  private readonly closeThreads: () => Promise<void>;

  constructor(file: string, closeThreads: () => Promise<void>) {
    this.file = file;
    this.closeThreads = closeThreads;
  }

  private dataVersionStmt?: StatementSync;
  private version: number | null = null;

  private checkpointer?: Checkpointer;

  async init() {
    const writer = open(this.file);
    if (this.file !== ':memory:') {
      // Checkpoints move off the event loop (see Checkpointer); the writer's commits stop doing them.
      this.checkpointer = new Checkpointer(this.file, () => writer.exec('PRAGMA wal_autocheckpoint = 1000'));
      writer.exec('PRAGMA wal_autocheckpoint = 0');
    }
    // Whatever the writer runs may have committed: the next caller reads the version afresh,
    // and the WAL is due a checkpoint.
    this.writer = new NodeSqliteConnection(writer, () => {
      this.version = null;
      this.checkpointer?.due();
    });
    // An in-memory database is private to its connection: reads must share the writer.
    this.reader = this.file === ':memory:' ? this.writer : new NodeSqliteConnection(open(this.file));
  }

  /**
   * Read at most once per event-loop turn (it costs ~12 µs between HTTP work, and a call asks for
   * it twice: its token, then its answer). Our own writes reset it at once; a commit by another
   * process is seen from the next turn.
   */
  dataVersion(): number | null {
    // In-memory: reader and writer are one connection, whose own commits don't change it.
    if (!this.reader || this.reader === this.writer) return null;
    if (this.version === null) {
      this.dataVersionStmt ??= this.reader.db.prepare('PRAGMA data_version');
      this.version = (this.dataVersionStmt.get() as { data_version: number }).data_version;
      void this.forgetVersionNextTurn();
    }
    return this.version;
  }

  /** The cached version lives one event-loop turn of this connection: a cache's expiry, no work. */
  private async forgetVersionNextTurn() {
    await nextTurn();
    this.version = null;
  }

  async acquireConnection(): Promise<DatabaseConnection> {
    // No lock here: a plain read never waits for the writer; writes and
    // transactions take the writer lock themselves (see RoutedConnection).
    return new RoutedConnection(this.writer!, this.reader!, this.writerLock);
  }

  async beginTransaction(conn: DatabaseConnection) {
    await (conn as RoutedConnection).begin();
  }
  async commitTransaction(conn: DatabaseConnection) {
    await (conn as RoutedConnection).end('commit');
  }
  async rollbackTransaction(conn: DatabaseConnection) {
    await (conn as RoutedConnection).end('rollback');
  }
  async releaseConnection(conn: DatabaseConnection) {
    (conn as RoutedConnection).releaseLock();
  }
  async destroy() {
    await this.closeThreads();
    await this.checkpointer?.close();
    this.writer?.db.close();
    if (this.reader !== this.writer) this.reader?.db.close();
  }
}

/**
 * One Kysely "connection": plain SELECTs outside a transaction run on the reader
 * (WAL gives them a consistent snapshot, and node:sqlite runs each statement
 * synchronously, so nothing interleaves inside one); a transaction holds the
 * writer lock from BEGIN to COMMIT; a lone write takes the lock for itself, so it
 * can never land inside somebody else's open transaction.
 */
class RoutedConnection implements DatabaseConnection {
  private release?: () => void;
  private readonly writer: NodeSqliteConnection;
  private readonly reader: NodeSqliteConnection;
  private readonly lock: Mutex;
  constructor(writer: NodeSqliteConnection, reader: NodeSqliteConnection, lock: Mutex) {
    this.writer = writer;
    this.reader = reader;
    this.lock = lock;
  }

  async begin() {
    this.release = await this.lock.lock();
    await this.writer.executeQuery(CompiledQuery.raw('begin immediate'));
  }
  async end(verb: 'commit' | 'rollback') {
    try {
      // SQLite may already have rolled the transaction back itself (SQLITE_FULL, SQLITE_IOERR):
      // then there is nothing to roll back, and a ROLLBACK error would replace the real cause
      // ("database or disk is full") in the error Kysely rethrows.
      if (verb === 'rollback' && !this.writer.db.isTransaction) return;
      await this.writer.executeQuery(CompiledQuery.raw(verb));
    } finally {
      this.releaseLock();
    }
  }
  releaseLock() {
    const r = this.release;
    this.release = undefined;
    r?.();
  }

  async executeQuery<R>(query: CompiledQuery): Promise<QueryResult<R>> {
    if (this.release) return this.writer.executeQuery<R>(query);
    if (this.reader !== this.writer && /^\s*(select|with)\b/i.test(query.sql)) {
      return this.reader.executeQuery<R>(query);
    }
    const release = await this.lock.lock();
    try {
      return await this.writer.executeQuery<R>(query);
    } finally {
      release();
    }
  }

  async *streamQuery<R>(query: CompiledQuery): AsyncIterableIterator<QueryResult<R>> {
    const conn = this.release || this.reader === this.writer ? this.writer : this.reader;
    yield* conn.streamQuery<R>(query);
  }
}
