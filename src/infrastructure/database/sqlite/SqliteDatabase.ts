import Database from 'better-sqlite3';
import { sql, type Placeholder, type SQL } from 'drizzle-orm';
import { drizzle } from 'drizzle-orm/better-sqlite3';
import { migrate } from 'drizzle-orm/better-sqlite3/migrator';
import { SQLiteSyncDialect } from 'drizzle-orm/sqlite-core';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { packageRoot } from '../../packageRoot.js';
import { QueryCompiler } from '../compiledQueries.js';
import type { DatabaseHandle, PlaceholderValues, SqlDatabase } from '../SqlDatabase.js';

export const sqliteMigrationsFolder = join(packageRoot, 'src/infrastructure/database/migrations');

/** Prepared statements kept per connection, by SQL text; the hot path reuses a handful. */
const statementCacheSize = 256;
const dialect = new SQLiteSyncDialect();
const compiler = new QueryCompiler((query) => dialect.sqlToQuery(query));
const nothing = sql``;
/** A list parameter travels as JSON text: `json_each` reads it back as rows. */
const asJson = { mapToDriverValue: (value: unknown) => JSON.stringify(value) };

/** `(SELECT value FROM json_each(?))`: an IN list as one JSON parameter. */
function inList(values: readonly string[] | Placeholder): SQL {
  return sql`(SELECT value FROM json_each(${sql.param(values, asJson)}))`;
}

/**
 * One better-sqlite3 connection. Statements run synchronously (microseconds on the hot path), so
 * the only thing to arrange is transactions that await between statements: while one is open,
 * every other query waits for it, so nothing from outside lands in it or sees half of it.
 */
class SqliteConnection implements SqlDatabase {
  readonly dialect = 'sqlite' as const;
  readonly forUpdate = nothing;
  readonly forUpdateSkipLocked = nothing;
  readonly forShare = nothing;
  private readonly statements = new Map<string, Database.Statement>();
  /** Settled when the open transaction ends; undefined while none is open. */
  private transactionEnded: Promise<void> | undefined;
  /** The same connection for the work inside a transaction: it does not wait for itself. */
  private readonly insideTransaction: SqlDatabase;

  constructor(readonly client: Database.Database) {
    const self = this;
    this.insideTransaction = {
      dialect: 'sqlite', forUpdate: nothing, forUpdateSkipLocked: nothing, forShare: nothing, inList,
      all: async <Row>(query: SQL, values?: PlaceholderValues) => self.allNow<Row>(query, values),
      get: async <Row>(query: SQL, values?: PlaceholderValues) => self.allNow<Row>(query, values)[0],
      run: async (query: SQL, values?: PlaceholderValues) => self.runNow(query, values),
      transaction: (work) => work(self.insideTransaction),
    };
  }

  readonly inList = inList;

  async all<Row>(query: SQL, values?: PlaceholderValues): Promise<Row[]> {
    while (this.transactionEnded) await this.transactionEnded;
    return this.allNow<Row>(query, values);
  }

  async get<Row>(query: SQL, values?: PlaceholderValues): Promise<Row | undefined> {
    return (await this.all<Row>(query, values))[0];
  }

  async run(query: SQL, values?: PlaceholderValues): Promise<number> {
    while (this.transactionEnded) await this.transactionEnded;
    return this.runNow(query, values);
  }

  async transaction<T>(work: (tx: SqlDatabase) => Promise<T>): Promise<T> {
    while (this.transactionEnded) await this.transactionEnded;
    let end!: () => void;
    this.transactionEnded = new Promise((resolve) => { end = resolve; });
    try {
      // IMMEDIATE takes the write lock now, so a read-then-write inside cannot be overtaken by
      // another process (the CLI) writing in between.
      this.client.exec('BEGIN IMMEDIATE');
      try {
        const result = await work(this.insideTransaction);
        this.client.exec('COMMIT');
        return result;
      } catch (error) {
        if (this.client.inTransaction) this.client.exec('ROLLBACK');
        throw error;
      }
    } finally {
      this.transactionEnded = undefined;
      end();
    }
  }

  private allNow<Row>(query: SQL, values?: PlaceholderValues): Row[] {
    const { statement, params } = this.prepare(query, values);
    if (statement.reader) return statement.all(...params) as Row[];
    statement.run(...params);
    return [];
  }

  private runNow(query: SQL, values?: PlaceholderValues): number {
    const { statement, params } = this.prepare(query, values);
    return statement.run(...params).changes;
  }

  private prepare(query: SQL, values?: PlaceholderValues): { statement: Database.Statement; params: unknown[] } {
    const { text, params } = compiler.prepare(query, values);
    let statement = this.statements.get(text);
    if (statement) {
      // Most recently used last, so the oldest is the one dropped.
      this.statements.delete(text);
    } else {
      statement = this.client.prepare(text);
      if (this.statements.size >= statementCacheSize) this.statements.delete(this.statements.keys().next().value!);
    }
    this.statements.set(text, statement);
    return { statement, params };
  }
}

/**
 * Opens (creating if needed) `<dataDir>/callscope.db` in WAL mode with foreign keys enforced and
 * a busy timeout, so the CLI can work beside a running server.
 */
export function openSqliteDatabase(dataDir: string): DatabaseHandle & { client: Database.Database } {
  mkdirSync(dataDir, { recursive: true });
  const client = new Database(join(dataDir, 'callscope.db'));
  client.pragma('journal_mode = WAL');
  // NORMAL is durable across process crashes in WAL mode; only an OS crash may lose the last commits.
  client.pragma('synchronous = NORMAL');
  client.pragma('foreign_keys = ON');
  client.pragma('busy_timeout = 5000');
  const connection = new SqliteConnection(client);
  // Prepared once: the liveness probe runs it on every poll.
  const ping = client.prepare('SELECT 1');
  return {
    sql: connection,
    client,
    dialect: 'sqlite',
    location: `SQLite ${join(dataDir, 'callscope.db')}`,
    migrate: async () => {
      const before = appliedMigrations(client);
      migrate(drizzle(client), { migrationsFolder: sqliteMigrationsFolder });
      const total = appliedMigrations(client);
      return { applied: total - before, total };
    },
    ping: async () => { ping.get(); },
    close: async () => { client.close(); },
  };
}

function appliedMigrations(client: Database.Database): number {
  const exists = client.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = '__drizzle_migrations'").get();
  if (!exists) return 0;
  return (client.prepare('SELECT count(*) AS count FROM __drizzle_migrations').get() as { count: number }).count;
}
