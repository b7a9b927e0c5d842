import { sql } from 'drizzle-orm';
import type { EmbeddingCipher } from '../../infrastructure/crypto/EmbeddingCipher.js';
import type { SqlDatabase } from '../../infrastructure/database/SqlDatabase.js';
import { insertInto } from '../../infrastructure/database/sqlFragments.js';
import { voiceProfiles } from '../../infrastructure/database/tables.js';

/** What the API may show of a profile: never the embedding. */
export interface VoiceProfileSummary {
  provider: string;
  consentVersion: string;
  sampleDurationSeconds: number;
  /** ms since the epoch: when this profile (the latest sample) was stored. */
  createdAt: number;
}

/** A profile's embedding, decrypted, for matching inside the service. */
export interface VoiceProfileEmbedding {
  vector: Float32Array;
  /** File name of the model that produced it: only comparable with speakers embedded by the same model. */
  model: string;
}

/** A stored profile as the admin page lists it: whose, made how and when; never the embedding. */
export interface VoiceProfileListing {
  userId: string;
  /** From the user's row; null when the identity provider gave none. */
  displayName: string | null;
  email: string | null;
  provider: string;
  /** File name of the model that produced the embedding. */
  embeddingModel: string;
  consentVersion: string;
  sampleDurationSeconds: number;
  /** ms since the epoch. */
  createdAt: number;
  updatedAt: number;
}

export interface NewVoiceProfile {
  provider: string;
  consentVersion: string;
  sampleDurationSeconds: number;
  embedding: VoiceProfileEmbedding;
}

/** Provider name shown for profiles: embeddings are made on this box, by the installed ONNX model. */
export const voiceProfileProvider = 'callscope-local';

/**
 * The one voice profile a user may have; embeddings are sealed before they touch the database.
 * The cipher is made on first use, so a server with voice profiles off never creates a key.
 */
export class VoiceProfileRepository {
  private cipherInstance: EmbeddingCipher | undefined;

  constructor(private readonly db: SqlDatabase, private readonly createCipher: () => EmbeddingCipher) {}

  private get cipher(): EmbeddingCipher {
    this.cipherInstance ??= this.createCipher();
    return this.cipherInstance;
  }

  /** Stores the user's profile, replacing any earlier one (a re-upload starts afresh: new `createdAt`). */
  async save(userId: string, profile: NewVoiceProfile, now: number): Promise<VoiceProfileSummary> {
    const row = {
      userId,
      provider: profile.provider,
      embeddingModel: profile.embedding.model,
      embeddingDimension: profile.embedding.vector.length,
      encryptedEmbedding: this.cipher.seal(profile.embedding.vector, userId),
      consentVersion: profile.consentVersion,
      sampleDurationSeconds: profile.sampleDurationSeconds,
      createdAt: now,
      updatedAt: now,
    };
    await this.db.run(sql`${insertInto(voiceProfiles, [row])} ON CONFLICT (user_id) DO UPDATE SET
      provider = excluded.provider, embedding_model = excluded.embedding_model, embedding_dimension = excluded.embedding_dimension,
      encrypted_embedding = excluded.encrypted_embedding, consent_version = excluded.consent_version,
      sample_duration_seconds = excluded.sample_duration_seconds, created_at = excluded.created_at, updated_at = excluded.updated_at`);
    return summaryOf(row);
  }

  async find(userId: string): Promise<VoiceProfileSummary | undefined> {
    const row = await this.db.get<VoiceProfileSummary>(sql`SELECT provider, consent_version AS "consentVersion",
      sample_duration_seconds AS "sampleDurationSeconds", created_at AS "createdAt" FROM voice_profiles WHERE user_id = ${userId}`);
    return row ? summaryOf(row) : undefined;
  }

  /** The decrypted embedding; undefined without a profile. Throws when the stored value cannot be opened. */
  async embeddingOf(userId: string): Promise<VoiceProfileEmbedding | undefined> {
    const row = await this.db.get<{ model: string; dimension: number; sealed: Buffer }>(sql`SELECT embedding_model AS model,
      embedding_dimension AS dimension, encrypted_embedding AS sealed FROM voice_profiles WHERE user_id = ${userId}`);
    if (!row) return undefined;
    const vector = this.cipher.open(row.sealed, userId);
    if (vector.length !== row.dimension) throw new Error('stored voice embedding has the wrong length');
    return { vector, model: row.model };
  }

  /** Every stored profile with its user's name and e-mail, most recently recorded first (at most one per user). */
  listAll(): Promise<VoiceProfileListing[]> {
    return this.db.all<VoiceProfileListing>(sql`SELECT p.user_id AS "userId", u.display_name AS "displayName", u.email AS email,
      p.provider AS provider, p.embedding_model AS "embeddingModel", p.consent_version AS "consentVersion",
      p.sample_duration_seconds AS "sampleDurationSeconds", p.created_at AS "createdAt", p.updated_at AS "updatedAt"
      FROM voice_profiles p LEFT JOIN users u ON u.id = p.user_id ORDER BY p.updated_at DESC, p.user_id`);
  }

  /** Removes every user's profile; the number removed. */
  removeAll(): Promise<number> {
    return this.db.run(sql`DELETE FROM voice_profiles`);
  }

  /** Removes the user's profile; true when there was one. */
  async remove(userId: string): Promise<boolean> {
    return (await this.db.run(sql`DELETE FROM voice_profiles WHERE user_id = ${userId}`)) > 0;
  }
}

function summaryOf(row: { provider: string; consentVersion: string; sampleDurationSeconds: number; createdAt: number }): VoiceProfileSummary {
  return { provider: row.provider, consentVersion: row.consentVersion, sampleDurationSeconds: row.sampleDurationSeconds, createdAt: row.createdAt };
}
