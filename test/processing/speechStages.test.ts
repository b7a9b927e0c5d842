import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { Value } from 'typebox/value';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { LocalPipelineRun } from '../../src/cli/LocalPipelineRun.js';
import { TranscriptSchema, type Transcript } from '../../src/domain/transcripts/transcriptSchema.js';
import { alignWordsToSpeakers } from '../../src/pipeline/alignment/alignWordsToSpeakers.js';
import { cleanAudio } from '../../src/pipeline/cleanup/cleanAudio.js';
import { diarizeAudio } from '../../src/pipeline/diarization/diarizeAudio.js';
import { buildTranscript } from '../../src/pipeline/normalization/buildTranscript.js';
import { resolveSpeakers } from '../../src/pipeline/speakers/resolveSpeakers.js';
import type { Diarization, TranscribedWord } from '../../src/pipeline/speechTypes.js';
import { runSpeechStages } from '../../src/processing/productionPipeline.js';

const shared = resolve(import.meta.dirname, '../../../shared');
const sample = join(shared, 'audio/pyannote-sample');
const segmentationModel = join(shared, 'models/pyannote-segmentation-3.0.fp16.onnx');

/** The STM's segment texts spread evenly over their time ranges: words whose speaker is known. */
function groundTruthWords(): (TranscribedWord & { truth: string })[] {
  return readFileSync(join(sample, 'sample.stm'), 'utf8').trim().split('\n').flatMap((line) => {
    const [, , speaker, start, end, ...text] = line.split(' ');
    const startSeconds = Number(start);
    const step = (Number(end) - startSeconds) / text.length;
    return text.map((word, index) => ({
      text: word, startSeconds: startSeconds + index * step, endSeconds: startSeconds + (index + 1) * step, probability: 1, truth: speaker!,
    }));
  });
}

let workDir: string;
let diarization: Diarization;
let durationSeconds: number;
beforeAll(async () => {
  workDir = await mkdtemp(join(tmpdir(), 'callscope-speech-'));
  const run = new LocalPipelineRun();
  const cleaned = await cleanAudio({ sourcePath: join(sample, 'sample.wav'), outputDir: workDir, maxDurationSeconds: 7200 }, run.contextFor('cleanup'));
  durationSeconds = cleaned.durationSeconds;
  diarization = await diarizeAudio(cleaned, { segmentationModel }, run.contextFor('diarization'));
});
afterAll(async () => { await rm(workDir, { recursive: true, force: true }); });

test('with the real segmentation model, words of the two-party call go to the speaker who said them', () => {
  const words = groundTruthWords();
  const aligned = alignWordsToSpeakers(words, diarization.turns);
  // Best mapping of diarization ids to the true names: the majority truth per id.
  const votes = new Map<string, Map<string, number>>();
  aligned.forEach((word, index) => {
    const byTruth = votes.get(word.speaker) ?? new Map<string, number>();
    byTruth.set(words[index]!.truth, (byTruth.get(words[index]!.truth) ?? 0) + 1);
    votes.set(word.speaker, byTruth);
  });
  const mapping = new Map([...votes].map(([id, byTruth]) => [id, [...byTruth].sort((a, b) => b[1] - a[1])[0]![0]]));
  expect(new Set(mapping.values())).toEqual(new Set(['Diane', 'Sheila']));
  const correct = aligned.filter((word, index) => mapping.get(word.speaker) === words[index]!.truth).length;
  expect(correct / aligned.length).toBeGreaterThanOrEqual(0.9);
});

test('with the real segmentation model, the transcript of the call has alternating speakers in valid v2 shape', () => {
  const transcript: Transcript = buildTranscript({
    callId: '0b1c2d3e-4f50-4a61-8b72-9c8d7e6f5a4b', createdAt: Date.now(), durationSeconds,
    words: alignWordsToSpeakers(groundTruthWords(), diarization.turns), diarization,
    transcription: { language: 'en', provider: 'ground truth', model: 'sample.stm' },
  });
  expect(Value.Check(TranscriptSchema, transcript)).toBe(true);
  expect(transcript.speakers.map((speaker) => speaker.speakerId)).toEqual(['spk_0', 'spk_1']);
  expect(transcript.segments.length).toBeGreaterThanOrEqual(8);
  // Every word is kept, in order, whatever the speaker boundaries.
  expect(transcript.segments.map((segment) => segment.text).join(' ')).toBe(groundTruthWords().map((word) => word.text).join(' '));
  expect(transcript.cleanText.split('\n')).toHaveLength(transcript.segments.length);
});

test('with the real segmentation model, Diane and Sheila are named from Diane\'s self-introduction', () => {
  const transcript = resolveSpeakers(buildTranscript({
    callId: '0b1c2d3e-4f50-4a61-8b72-9c8d7e6f5a4b', createdAt: Date.now(), durationSeconds,
    words: alignWordsToSpeakers(groundTruthWords(), diarization.turns), diarization,
    transcription: { language: 'en', provider: 'ground truth', model: 'sample.stm' },
  }), { userDisplayName: 'Diane', metadata: { contactName: 'Sheila', direction: 'INCOMING' } });
  expect(transcript.speakers.map((speaker) => [speaker.label, speaker.role])).toEqual(expect.arrayContaining([['Diane', 'USER'], ['Sheila', 'CONTACT']]));
  const introduction = transcript.segments.find((segment) => segment.text.includes('This is Diane'));
  expect(introduction?.speaker).toBe('Diane');
  expect(Value.Check(TranscriptSchema, transcript)).toBe(true);
});

test('with the real models, the whole speech half runs on the one-speaker recording and finds one speaker', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'callscope-speech-jfk-'));
  try {
    const speech = await runSpeechStages(
      { callId: '0b1c2d3e-4f50-4a61-8b72-9c8d7e6f5a4b', audioPath: join(shared, 'audio/jfk/jfk.wav'), workDir: dir, createdAt: Date.now(), metadata: {} },
      new LocalPipelineRun(),
      {
        maxDurationSeconds: 7200,
        diarization: { segmentationModel },
        transcription: { provider: 'local', local: { modelPath: join(shared, 'models/whisper-test-stub-tiny.en.bin'), vadModelPath: join(shared, 'models/silero-vad-v6.2.0-ggml.bin') } },
        voiceMatch: { embeddingModel: 'models/embedding.onnx', thresholds: { high: 0.85, medium: 0.75 } },
      },
    );
    expect(speech.diarization.speakerCount).toBe(1);
    // The structure-only whisper model transcribes to empty text: a valid transcript without segments.
    expect(Value.Check(TranscriptSchema, speech.transcript)).toBe(true);
    expect(speech.voiceMatch.status).toBe('DISABLED');
    expect(speech.transcript.pipeline).toMatchObject({ transcriptionProvider: 'whisper.cpp', diarizationModel: 'pyannote-segmentation-3.0.fp16.onnx', normalizationVersion: 3 });
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});
