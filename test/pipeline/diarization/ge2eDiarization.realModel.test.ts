import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { packageRoot } from '../../../src/infrastructure/packageRoot.js';
import { cleanAudio } from '../../../src/pipeline/cleanup/cleanAudio.js';
import { diarizeAudio } from '../../../src/pipeline/diarization/diarizeAudio.js';
import { createSpeakerEncoder, speakerEncoderKindOf } from '../../../src/pipeline/diarization/models/SpeakerEncoder.js';
import { scoreDiarization } from '../../../src/pipeline/diarization/scoring/scoreDiarization.js';
import { libriSpeechConversationPlans, spliceLibriSpeechConversation } from '../../../scripts/audio/libriSpeechConversations.js';
import { decodeMono16k } from '../../../scripts/audio/speechRegions.js';
import { requireEvalModelFile } from '../../../scripts/models/evalModels.js';
import { createTestStageContext } from '../testStageContext.js';
import { segmentationModelPath } from './stereoCall.js';

// Needs the GE2E encoder converted by `npm run models:eval -- --only ge2e-resemblyzer` (the test
// command fetches it), the real segmentation model and ../shared/audio/librispeech.

const encoderPath = requireEvalModelFile('ge2e-resemblyzer', 'voiceEncoderOnnx');
const librispeech = resolve(packageRoot, '../shared/audio/librispeech');
const folder = await mkdtemp(join(tmpdir(), 'ge2e-diarization-'));
afterAll(() => rm(folder, { recursive: true, force: true }));

describe('diarization and voices with the real GE2E encoder', () => {
  it('the slot reads the converted file\'s kind from its metadata: GE2E, whatever the file is called', async () => {
    expect(await speakerEncoderKindOf(encoderPath)).toBe('ge2e');
  });

  it('tells two readers apart: two utterances of one are closer than utterances of two', async () => {
    const encoder = await createSpeakerEncoder(encoderPath);
    const embed = async (file: string) => encoder.embedSpeech(await decodeMono16k(join(librispeech, file)));
    const [first, second, other] = await Promise.all(['test-other/1688/1688-142285-0000.flac', 'test-other/1688/1688-142285-0001.flac', 'test-other/1998/1998-15444-0000.flac'].map(embed));
    const cosine = (a: Float32Array, b: Float32Array) => a.reduce((sum, value, index) => sum + value * b[index]!, 0);
    expect(cosine(first!, second!)).toBeGreaterThan(cosine(first!, other!) + 0.1);
    // Embedded together in one run, as diarization embeds its pieces: the same embeddings.
    const together = await encoder.embedSpeeches(await Promise.all(['test-other/1688/1688-142285-0000.flac', 'test-other/1998/1998-15444-0000.flac'].map((file) => decodeMono16k(join(librispeech, file)))));
    expect(cosine(together[0]!, first!)).toBeGreaterThan(0.99999);
    expect(cosine(together[1]!, other!)).toBeGreaterThan(0.99999);
    expect(await encoder.embedSpeeches([])).toEqual([]);
    await encoder.dispose();
  });

  it('finds the three speakers of a held-out LibriSpeech conversation with no confusion, where the embedding-free path mixes them', async () => {
    const plan = libriSpeechConversationPlans.find((candidate) => candidate.half === 'held-out' && candidate.speakers === 3)!;
    const conversation = await spliceLibriSpeechConversation(librispeech, plan, join(folder, 'conversation.wav'));
    const cleaned = await cleanAudio({ sourcePath: conversation.path, outputDir: join(folder, 'cleaned'), maxDurationSeconds: 3600 }, createTestStageContext());

    const withEncoder = await diarizeAudio(cleaned, { segmentationModel: segmentationModelPath, embeddingModel: encoderPath }, createTestStageContext());
    expect(withEncoder).toMatchObject({ speakerCount: 3, method: 'embedding-clustering', model: 'pyannote-segmentation-3.0.fp16.onnx + ge2e-resemblyzer.onnx' });
    expect(scoreDiarization(conversation.turns, withEncoder.turns).confusion).toBeLessThan(0.02);
    // Both cores for the command line's one call (DIARIZATION_THREADS): the same speakers, turns within a frame or two.
    const twoThreads = await diarizeAudio(cleaned, { segmentationModel: segmentationModelPath, embeddingModel: encoderPath, threads: 2 }, createTestStageContext());
    expect(twoThreads.speakerCount).toBe(3);
    expect(scoreDiarization(withEncoder.turns, twoThreads.turns).diarizationErrorRate).toBeLessThan(0.01);

    const without = await diarizeAudio(cleaned, { segmentationModel: segmentationModelPath }, createTestStageContext());
    expect(scoreDiarization(conversation.turns, without.turns).confusion).toBeGreaterThan(0.1);
  });
});
