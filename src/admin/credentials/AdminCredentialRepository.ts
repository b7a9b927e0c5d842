import { sql } from 'drizzle-orm';
import type { SqlDatabase } from '../../infrastructure/database/SqlDatabase.js';
import { columnsOf } from '../../infrastructure/database/sqlFragments.js';
import { adminCredentials } from '../../infrastructure/database/tables.js';

export type CredentialKind = (typeof adminCredentials.$inferSelect)['kind'];
export type CredentialRecord = typeof adminCredentials.$inferSelect;

/** The `admin_credentials` table: one hashed secret per kind, replaced as a whole. */
export class AdminCredentialRepository {
  constructor(private readonly db: SqlDatabase) {}

  get(kind: CredentialKind): Promise<CredentialRecord | undefined> {
    return this.db.get<CredentialRecord>(sql`SELECT ${columnsOf(adminCredentials)} FROM admin_credentials WHERE kind = ${kind}`);
  }

  async put(kind: CredentialKind, secretHash: string, createdAt: number, expiresAt: number | null = null): Promise<void> {
    await this.db.run(sql`INSERT INTO admin_credentials (kind, secret_hash, created_at, expires_at) VALUES (${kind}, ${secretHash}, ${createdAt}, ${expiresAt})
      ON CONFLICT (kind) DO UPDATE SET secret_hash = excluded.secret_hash, created_at = excluded.created_at, expires_at = excluded.expires_at`);
  }

  /** Stores the credential unless one of its kind exists; whether it did. */
  async putIfAbsent(kind: CredentialKind, secretHash: string, createdAt: number): Promise<boolean> {
    return (await this.db.run(sql`INSERT INTO admin_credentials (kind, secret_hash, created_at, expires_at) VALUES (${kind}, ${secretHash}, ${createdAt}, NULL)
      ON CONFLICT DO NOTHING`)) === 1;
  }

  async remove(kind: CredentialKind): Promise<boolean> {
    return (await this.db.run(sql`DELETE FROM admin_credentials WHERE kind = ${kind}`)) > 0;
  }
}
