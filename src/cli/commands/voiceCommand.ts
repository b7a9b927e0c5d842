import { existsSync } from 'node:fs';
import { basename, join } from 'node:path';
import { parseArgs } from 'node:util';
import { loadConfig } from '../../config/loadConfig.js';
import { assertModelUsable } from '../../infrastructure/models/assertModelUsable.js';
import { resolveModelPath } from '../../infrastructure/models/resolveModelPath.js';
import { cleanAudio } from '../../pipeline/cleanup/cleanAudio.js';
import { speakerEncoderKindOf } from '../../pipeline/diarization/models/SpeakerEncoder.js';
import { cosine } from '../../pipeline/diarization/speakers/clusterEmbeddings.js';
import { StageFailure } from '../../pipeline/StageFailure.js';
import { embedVoices, voiceEmbeddingLimits } from '../../pipeline/voice/embedVoices.js';
import { UsageError, type CliCommand } from '../CliCommand.js';
import { runLocally } from '../runLocally.js';

/** What `callscope voice compare` prints: one JSON object on stdout. */
export interface VoiceComparison {
  /** Cosine similarity of the two recordings' voice embeddings, −1 … 1 (rounded to 4 decimals). */
  similarity: number;
  /** The voice-match threshold a call speaker must reach to be taken for a profile's voice (`SERVICE_VOICE_EMBEDDING_MEDIUM_THRESHOLD`). */
  threshold: number;
  /** Whether the product would take the two voices for one speaker: `similarity >= threshold`. */
  sameSpeaker: boolean;
  /** The installed encoder: its file's name and kind, e.g. `embedding.onnx (ge2e)`. */
  model: string;
}

/**
 * `callscope voice compare A B`: the two recordings' similarity under the installed speaker
 * encoder (`EMBEDDING_MODEL`), each cleaned and embedded exactly as a voice profile's sample and a
 * call's speaker are (quiet frames left out, 6 s pieces averaged), and whether the product would
 * take them for one speaker. Each recording should hold one voice. Exit codes: 0 compared, 1 a
 * recording or the model could not be used (the reason on stderr), 64 usage, 130 interrupted.
 */
export const voiceCommand: CliCommand = {
  name: 'voice',
  usage: 'voice compare <audio A> <audio B>',
  summary: 'Print as JSON how alike the voices of two recordings are, and whether they would be taken for one speaker (model from EMBEDDING_MODEL)',
  async run(args) {
    const { positionals } = parseArgs({ args, allowPositionals: true, strict: true, options: {} });
    const [action, first, second, ...extra] = positionals;
    if (action !== 'compare' || !first || !second || extra.length > 0) throw new UsageError('Give `compare` and exactly two audio files.');
    const config = loadConfig();
    return runLocally('voice', async (run, workDir) => {
      const modelPath = resolveModelPath(config.EMBEDDING_MODEL);
      if (!existsSync(modelPath)) throw new StageFailure('model_missing', `No speaker-embedding model is installed (${basename(config.EMBEDDING_MODEL)}); set EMBEDDING_MODEL to one`);
      await assertModelUsable(modelPath);
      const embed = async (audioPath: string, folder: string) => {
        const cleaned = await cleanAudio({ sourcePath: audioPath, outputDir: join(workDir, folder), maxDurationSeconds: config.MAX_AUDIO_DURATION_SECONDS }, run.contextFor('cleanup'));
        const { voices } = await embedVoices({ audioPath: cleaned.monoPath, embeddingModelPath: modelPath, voices: { voice: [{ startSeconds: 0, endSeconds: cleaned.durationSeconds }] } });
        if (!voices.voice) throw new StageFailure('bad_input', `${basename(audioPath)} holds less than ${voiceEmbeddingLimits.minSpeechSeconds} s of speech: too little to compare`);
        return voices.voice.vector;
      };
      const similarity = Math.round(cosine(await embed(first, 'a'), await embed(second, 'b')) * 10_000) / 10_000;
      const threshold = config.SERVICE_VOICE_EMBEDDING_MEDIUM_THRESHOLD;
      const comparison: VoiceComparison = { similarity, threshold, sameSpeaker: similarity >= threshold, model: `${basename(modelPath)} (${await speakerEncoderKindOf(modelPath)})` };
      console.log(JSON.stringify(comparison));
    });
  },
};
