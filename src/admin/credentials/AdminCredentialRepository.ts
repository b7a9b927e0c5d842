import { eq } from 'drizzle-orm';
import type { Db } from '../../infrastructure/database/openDatabase.js';
import { adminCredentials } from '../../infrastructure/database/schema.js';

export type CredentialKind = (typeof adminCredentials.$inferSelect)['kind'];
export type CredentialRecord = typeof adminCredentials.$inferSelect;

/** The `admin_credentials` table: one hashed secret per kind, replaced as a whole. */
export class AdminCredentialRepository {
  constructor(private readonly db: Db) {}

  get(kind: CredentialKind): CredentialRecord | undefined {
    return this.db.select().from(adminCredentials).where(eq(adminCredentials.kind, kind)).get();
  }

  put(kind: CredentialKind, secretHash: string, createdAt: number, expiresAt: number | null = null): void {
    this.db.insert(adminCredentials).values({ kind, secretHash, createdAt, expiresAt })
      .onConflictDoUpdate({ target: adminCredentials.kind, set: { secretHash, createdAt, expiresAt } }).run();
  }

  remove(kind: CredentialKind): boolean {
    return this.db.delete(adminCredentials).where(eq(adminCredentials.kind, kind)).run().changes > 0;
  }
}
