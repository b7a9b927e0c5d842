import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { freeLoopbackPort } from '../../../src/infrastructure/processes/freeLoopbackPort.js';

/** Where Debian's postgresql packages put the server programs (one folder per major version). */
const debianPostgresRoot = '/usr/lib/postgresql';

export interface ThrowawayCluster {
  /** `postgres://callscope@127.0.0.1:<port>/postgres`: the superuser, trusted on loopback. */
  adminUrl: string;
  stop(): void;
}

/**
 * The PostgreSQL server programs: POSTGRES_BIN_DIR, else the newest Debian install
 * (`apt-get install postgresql`), else undefined.
 */
export function postgresBinDir(): string | undefined {
  if (process.env.POSTGRES_BIN_DIR) return process.env.POSTGRES_BIN_DIR;
  const versions = existsSync(debianPostgresRoot) ? readdirSync(debianPostgresRoot).filter((name) => /^\d+$/.test(name)).sort((a, b) => Number(b) - Number(a)) : [];
  const found = versions.map((version) => join(debianPostgresRoot, version, 'bin')).find((dir) => existsSync(join(dir, 'initdb')));
  return found;
}

/**
 * Starts a throwaway PostgreSQL cluster in a temp folder on a free loopback port (about a
 * second): `initdb` as the `postgres` user (it refuses root), trust authentication, no fsync.
 * `stop()` shuts it down and removes the folder.
 */
export async function startThrowawayCluster(): Promise<ThrowawayCluster> {
  const bin = postgresBinDir();
  if (!bin) throw new Error('PostgreSQL is not installed: apt-get install postgresql (or set POSTGRES_BIN_DIR)');
  const folder = mkdtempSync(join(tmpdir(), 'callscope-pg-'));
  // The postgres user runs the server, so it must own the folder.
  chmodSync(folder, 0o777);
  const asServer = process.getuid?.() === 0 ? (program: string, args: string[]) => ['runuser', ['-u', 'postgres', '--', join(bin, program), ...args]] as const
    : (program: string, args: string[]) => [join(bin, program), args] as const;
  const run = (program: string, args: string[]) => {
    const [command, commandArgs] = asServer(program, args);
    const result = spawnSync(command, commandArgs, { encoding: 'utf8' });
    if (result.status !== 0) throw new Error(`${program} failed: ${result.stderr || result.stdout}`);
  };
  const dataDir = join(folder, 'data');
  run('initdb', ['-D', dataDir, '-U', 'callscope', '--auth=trust', '--no-sync', '-E', 'UTF8']);
  const port = await freeLoopbackPort();
  run('pg_ctl', ['-D', dataDir, '-w', '-l', join(folder, 'server.log'), '-o', `-p ${port} -k ${folder} -c listen_addresses=127.0.0.1 -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=300`, 'start']);
  return {
    adminUrl: `postgres://callscope@127.0.0.1:${port}/postgres`,
    stop: () => {
      try {
        run('pg_ctl', ['-D', dataDir, '-m', 'immediate', 'stop']);
      } finally {
        rmSync(folder, { recursive: true, force: true });
      }
    },
  };
}

/** A new, empty database on the cluster (given as itself or its superuser URL); its URL. */
export async function createPostgresDatabaseOn(cluster: ThrowawayCluster | string, name = `callscope_${randomBytes(8).toString('hex')}`): Promise<string> {
  const adminUrl = typeof cluster === 'string' ? cluster : cluster.adminUrl;
  const admin = new pg.Client(adminUrl);
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE ${name}`);
  } finally {
    await admin.end();
  }
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return url.toString();
}
