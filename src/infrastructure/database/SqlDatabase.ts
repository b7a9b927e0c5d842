import type { Placeholder, SQL } from 'drizzle-orm';

export type DatabaseDialect = 'sqlite' | 'postgres';

/** Values for the `sql.placeholder(name)`s of a query, by name. */
export type PlaceholderValues = Record<string, unknown>;

/**
 * The one way the service reaches its database, whichever engine runs it: embedded SQLite (the
 * default) or PostgreSQL (`DATABASE_URL`). Queries are drizzle `sql` templates in SQL that both
 * engines run; each implementation compiles them for its engine (`?` or `$1` placeholders) and
 * returns rows keyed by the query's column aliases. Numbers come back as numbers on both
 * (PostgreSQL's bigint and numeric are parsed: milliseconds and counts stay below 2^53).
 *
 * A query object built once (a constant, with `sql.placeholder(name)` where values go) is
 * compiled once and its values given per call in `values`: the hot path then pays neither
 * drizzle's compilation nor SQLite's statement preparation again. Queries built per call work too.
 */
export interface SqlDatabase {
  readonly dialect: DatabaseDialect;
  /** Every row of a query. */
  all<Row>(query: SQL, values?: PlaceholderValues): Promise<Row[]>;
  /** The first row of a query, or undefined. */
  get<Row>(query: SQL, values?: PlaceholderValues): Promise<Row | undefined>;
  /** Runs a statement; resolves to the number of rows it inserted, changed or deleted. */
  run(query: SQL, values?: PlaceholderValues): Promise<number>;
  /**
   * The right-hand side of `IN`: a list of strings passed as one parameter (`json_each` of a JSON
   * array on SQLite, `unnest` of a text array on PostgreSQL), so that one compiled statement
   * serves lists of any length. Give the list, or a placeholder whose value will be the list.
   */
  inList(values: readonly string[] | Placeholder): SQL;
  /**
   * Runs `work` in one transaction on `tx`, committed when it resolves and rolled back when it
   * throws. Everything inside must go through `tx`: on SQLite other work waits until the
   * transaction ends (one connection, serialised writers); on PostgreSQL `tx` is its own
   * connection. A transaction inside a transaction joins the outer one.
   */
  transaction<T>(work: (tx: SqlDatabase) => Promise<T>): Promise<T>;
  /**
   * Appended to a `SELECT` whose rows a transaction is about to change, so that concurrent
   * transactions on other nodes wait for it: ` FOR UPDATE` on PostgreSQL; empty on SQLite,
   * where a write transaction holds the whole database.
   */
  readonly forUpdate: SQL;
  /**
   * Appended to the queue's claim: ` FOR UPDATE SKIP LOCKED` on PostgreSQL, so concurrent
   * claims on many nodes pass over each other's row instead of waiting; empty on SQLite.
   */
  readonly forUpdateSkipLocked: SQL;
  /**
   * Appended to a `SELECT` of a row that must not change (or gain a dependant that would change
   * the answer) until the transaction ends, while other readers holding the same lock proceed:
   * ` FOR SHARE` on PostgreSQL (a ` FOR UPDATE` elsewhere waits for it); empty on SQLite.
   */
  readonly forShare: SQL;
}

/** An open database: the query port, plus what the process does with the connection itself. */
export interface DatabaseHandle {
  readonly sql: SqlDatabase;
  readonly dialect: DatabaseDialect;
  /** Where the data lives, fit for logs and the admin page (no password). */
  readonly location: string;
  /** Applies every migration not yet recorded; how many were applied and how many exist. */
  migrate(): Promise<{ applied: number; total: number }>;
  /** Rejects when the database does not answer (readiness). */
  ping(): Promise<void>;
  /** Closes the connection (pool); calling it again does nothing more. */
  close(): Promise<void>;
}
