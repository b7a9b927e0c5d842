import { eq } from 'drizzle-orm';
import type { EmbeddingCipher } from '../../infrastructure/crypto/EmbeddingCipher.js';
import type { Db } from '../../infrastructure/database/openDatabase.js';
import { voiceProfiles } from '../../infrastructure/database/schema.js';

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

  constructor(private readonly db: Db, private readonly createCipher: () => EmbeddingCipher) {}

  private get cipher(): EmbeddingCipher {
    this.cipherInstance ??= this.createCipher();
    return this.cipherInstance;
  }

  /** Stores the user's profile, replacing any earlier one (a re-upload starts afresh: new `createdAt`). */
  save(userId: string, profile: NewVoiceProfile, now: number): VoiceProfileSummary {
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
    const { userId: _key, ...replacement } = row;
    this.db.insert(voiceProfiles).values(row).onConflictDoUpdate({ target: voiceProfiles.userId, set: replacement }).run();
    return summaryOf(row);
  }

  find(userId: string): VoiceProfileSummary | undefined {
    const row = this.db.select().from(voiceProfiles).where(eq(voiceProfiles.userId, userId)).get();
    return row ? summaryOf(row) : undefined;
  }

  /** The decrypted embedding; undefined without a profile. Throws when the stored value cannot be opened. */
  embeddingOf(userId: string): VoiceProfileEmbedding | undefined {
    const row = this.db.select({ model: voiceProfiles.embeddingModel, dimension: voiceProfiles.embeddingDimension, sealed: voiceProfiles.encryptedEmbedding })
      .from(voiceProfiles).where(eq(voiceProfiles.userId, userId)).get();
    if (!row) return undefined;
    const vector = this.cipher.open(row.sealed, userId);
    if (vector.length !== row.dimension) throw new Error('stored voice embedding has the wrong length');
    return { vector, model: row.model };
  }

  /** Removes the user's profile; true when there was one. */
  remove(userId: string): boolean {
    return this.db.delete(voiceProfiles).where(eq(voiceProfiles.userId, userId)).run().changes > 0;
  }
}

function summaryOf(row: { provider: string; consentVersion: string; sampleDurationSeconds: number; createdAt: number }): VoiceProfileSummary {
  return { provider: row.provider, consentVersion: row.consentVersion, sampleDurationSeconds: row.sampleDurationSeconds, createdAt: row.createdAt };
}
