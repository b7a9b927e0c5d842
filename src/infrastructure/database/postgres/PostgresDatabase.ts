import { sql, type SQL } from 'drizzle-orm';
import { drizzle, type NodePgDatabase } from 'drizzle-orm/node-postgres';
import { migrate } from 'drizzle-orm/node-postgres/migrator';
import { join } from 'node:path';
import pg from 'pg';
import { packageRoot } from '../../packageRoot.js';
import type { DatabaseHandle, SqlDatabase } from '../SqlDatabase.js';

export const postgresMigrationsFolder = join(packageRoot, 'src/infrastructure/database/postgres/migrations');

// node-postgres returns bigint (int8) and numeric as strings, since they may exceed 2^53. Ours
// never do (milliseconds since the epoch, counts, sums of milliseconds): read them as numbers,
// as SQLite does. These parsers are process-wide; only this module talks to PostgreSQL.
pg.types.setTypeParser(pg.types.builtins.INT8, Number);
pg.types.setTypeParser(pg.types.builtins.NUMERIC, Number);

/** Any fixed number: the advisory lock that lets one node at a time apply migrations. */
const migrationLockKey = 4_707_106_421;

type Executor = Pick<NodePgDatabase, 'execute' | 'transaction'>;

class PostgresConnection implements SqlDatabase {
  readonly dialect = 'postgres' as const;
  readonly forUpdate = sql` FOR UPDATE`;
  readonly forUpdateSkipLocked = sql` FOR UPDATE SKIP LOCKED`;

  constructor(private readonly executor: Executor, private readonly inTransaction: boolean) {}

  async all<Row>(query: SQL): Promise<Row[]> {
    return (await this.executor.execute(query)).rows as Row[];
  }

  async get<Row>(query: SQL): Promise<Row | undefined> {
    return (await this.all<Row>(query))[0];
  }

  async run(query: SQL): Promise<number> {
    return (await this.executor.execute(query)).rowCount ?? 0;
  }

  async transaction<T>(work: (tx: SqlDatabase) => Promise<T>): Promise<T> {
    if (this.inTransaction) return work(this);
    return this.executor.transaction((tx) => work(new PostgresConnection(tx, true)));
  }
}

export interface PostgresOptions {
  /** Connections this process keeps open at most. */
  poolSize?: number;
}

/**
 * Connects to `DATABASE_URL` (postgres://user:pass@host:5432/db) through a node-postgres pool.
 * Every node of a site uses the same database: the queue, the settings and the node list live there.
 */
export function openPostgresDatabase(url: string, options: PostgresOptions = {}): DatabaseHandle & { pool: pg.Pool } {
  const pool = new pg.Pool({ connectionString: url, max: options.poolSize ?? 10, connectionTimeoutMillis: 10_000 });
  // An idle connection the server drops (restart, network) is replaced on the next query; without
  // a listener the pool's 'error' event would end the process.
  pool.on('error', () => undefined);
  const db = drizzle({ client: pool });
  return {
    sql: new PostgresConnection(db, false),
    pool,
    dialect: 'postgres',
    location: `PostgreSQL ${describePostgresUrl(url)}`,
    migrate: async () => {
      // Nodes starting together: one applies the migrations, the others wait and find them applied.
      const client = await pool.connect();
      try {
        await client.query('SELECT pg_advisory_lock($1)', [migrationLockKey]);
        const before = await appliedMigrations(client);
        await migrate(db, { migrationsFolder: postgresMigrationsFolder });
        const total = await appliedMigrations(client);
        return { applied: total - before, total };
      } finally {
        await client.query('SELECT pg_advisory_unlock($1)', [migrationLockKey]).catch(() => undefined);
        client.release();
      }
    },
    ping: async () => { await pool.query('SELECT 1'); },
    close: () => pool.end(),
  };
}

/** `user@host:port/database`, never the password. */
export function describePostgresUrl(url: string): string {
  try {
    const parsed = new URL(url);
    const user = parsed.username ? `${decodeURIComponent(parsed.username)}@` : '';
    return `${user}${parsed.hostname}${parsed.port ? `:${parsed.port}` : ''}${parsed.pathname}`;
  } catch {
    return '(unparsable DATABASE_URL)';
  }
}

async function appliedMigrations(client: pg.PoolClient): Promise<number> {
  const exists = await client.query("SELECT 1 FROM information_schema.tables WHERE table_schema = 'drizzle' AND table_name = '__drizzle_migrations'");
  if (exists.rowCount === 0) return 0;
  return Number((await client.query('SELECT count(*) AS count FROM drizzle.__drizzle_migrations')).rows[0].count);
}
