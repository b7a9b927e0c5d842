import { sql } from 'drizzle-orm';
import type { SqlDatabase } from '../../infrastructure/database/SqlDatabase.js';
import { insertInto } from '../../infrastructure/database/sqlFragments.js';
import { speakerCorrections } from '../../infrastructure/database/tables.js';
import type { SpeakerRole } from '../transcripts/transcriptSchema.js';
import type { SpeakerCorrection } from './applySpeakerCorrection.js';

type CorrectionRow = Pick<typeof speakerCorrections.$inferSelect, 'kind' | 'speakerId' | 'intoSpeakerId' | 'displayName' | 'role'>;

/** A call's speaker corrections, kept so that a reprocess applies them again to its new documents. */
export class SpeakerCorrectionRepository {
  constructor(private readonly db: SqlDatabase) {}

  async add(callId: string, correction: SpeakerCorrection, now: number): Promise<void> {
    await this.db.run(insertInto(speakerCorrections, [{
      callId,
      kind: correction.kind,
      speakerId: correction.speakerId,
      intoSpeakerId: correction.kind === 'merge' ? correction.intoSpeakerId : null,
      displayName: correction.kind === 'label' ? correction.displayName ?? null : null,
      role: correction.kind === 'label' ? correction.role ?? null : null,
      createdAt: now,
    }]));
  }

  /** The call's corrections in the order they were made. */
  async listForCall(callId: string): Promise<SpeakerCorrection[]> {
    const rows = await this.db.all<CorrectionRow>(sql`SELECT kind, speaker_id AS "speakerId", into_speaker_id AS "intoSpeakerId",
      display_name AS "displayName", role FROM speaker_corrections WHERE call_id = ${callId} ORDER BY seq`);
    return rows.map(toCorrection);
  }
}

function toCorrection(row: CorrectionRow): SpeakerCorrection {
  if (row.kind === 'merge') return { kind: 'merge', speakerId: row.speakerId, intoSpeakerId: row.intoSpeakerId ?? row.speakerId };
  return {
    kind: 'label',
    speakerId: row.speakerId,
    ...(row.displayName !== null ? { displayName: row.displayName } : {}),
    ...(row.role !== null ? { role: row.role as SpeakerRole } : {}),
  };
}
