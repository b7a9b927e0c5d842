import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { mergeSpeakersByVoice } from '../../../../src/pipeline/diarization/speakers/mergeSpeakersByVoice.js';
import { RecordingCepstra } from '../../../../src/pipeline/diarization/speakers/RecordingCepstra.js';
import { cepstra, CEPSTRAL_DIMENSIONS, collectVoiceStatistics, separationEvidence, soloStretches, VoiceStatistics } from '../../../../src/pipeline/diarization/speakers/voiceStatistics.js';
import { sharedAudio } from '../stereoCall.js';

/** 16-bit mono WAV samples scaled to -1..1 (the shared clips have a 44-byte header). */
async function samplesOf(path: string): Promise<Float32Array> {
  const bytes = await readFile(path);
  const samples = new Float32Array((bytes.length - 44) / 2);
  for (let index = 0; index < samples.length; index++) samples[index] = bytes.readInt16LE(44 + 2 * index) / 32768;
  return samples;
}

function statisticsOf(samples: Float32Array): VoiceStatistics {
  const { frames, features } = cepstra(samples);
  const statistics = new VoiceStatistics();
  statistics.add(features, frames);
  return statistics;
}

const [penaltyWeight, floor] = [1.3, 0.01];

describe('voice statistics without a model', () => {
  it('cepstra: 19 coefficients every 10 ms', () => {
    const { frames, features } = cepstra(new Float32Array(16000).map((_, index) => Math.sin(index / 7) * 0.3));
    expect(frames).toBe(98);
    expect(features).toHaveLength(98 * CEPSTRAL_DIMENSIONS);
    expect(features.every(Number.isFinite)).toBe(true);
  });

  it('the BIC finds two clips of one real speaker alike and a different speaker apart', async () => {
    const [firstClip, secondClip, otherSpeaker] = await Promise.all([
      samplesOf(sharedAudio('speakers/speaker1_a_en_16k.wav')),
      samplesOf(sharedAudio('speakers/speaker1_b_en_16k.wav')),
      samplesOf(sharedAudio('speakers/speaker2_a_en_16k.wav')),
    ]);
    const same = separationEvidence(statisticsOf(firstClip), statisticsOf(secondClip), penaltyWeight, floor);
    const different = separationEvidence(statisticsOf(firstClip), statisticsOf(otherSpeaker), penaltyWeight, floor);
    expect(same).toBeLessThan(0);
    expect(different).toBeGreaterThan(0);
  });

  it('statistics combine exactly: the sums of two parts are those of the whole', () => {
    const signal = new Float32Array(32000).map((_, index) => Math.sin(index / 5) * 0.2 + Math.sin(index / 17) * 0.1);
    const whole = statisticsOf(signal);
    const parts = VoiceStatistics.combined(statisticsOf(signal.subarray(0, 16000)), statisticsOf(signal.subarray(16000)));
    // Frames at the cut differ (each part's last partial frame is dropped), so compare per frame.
    expect(Math.abs(parts.sum[0]! / parts.frames - whole.sum[0]! / whole.frames)).toBeLessThan(0.05 * Math.abs(whole.sum[0]! / whole.frames) + 1e-6);
    expect(parts.frames).toBeGreaterThanOrEqual(whole.frames - 2);
  });

  it('solo stretches: only where one speaker talks, trimmed at both ends, short ones dropped', () => {
    const runs = [
      { speaker: 0, startSeconds: 0, endSeconds: 5 },
      { speaker: 1, startSeconds: 4, endSeconds: 8 },
      { speaker: 0, startSeconds: 8.2, endSeconds: 8.5 },
    ];
    expect(soloStretches(runs, 0.1, 0.3)).toEqual([
      { run: 0, startSeconds: 0.1, endSeconds: 3.9 },
      { run: 1, startSeconds: 5.1, endSeconds: 7.9 },
    ]);
  });

  it("collects each run's statistics from the recording's cepstra, the same whatever the blocks they were read in", async () => {
    const signal = await samplesOf(sharedAudio('speakers/speaker2_a_en_16k.wav'));
    const stretches = [{ run: 0, startSeconds: 0.5, endSeconds: 2.5 }, { run: 3, startSeconds: 3, endSeconds: 6 }];
    const small = collectVoiceStatistics(recordingCepstra(signal, 999), stretches);
    const large = collectVoiceStatistics(recordingCepstra(signal, 1 << 18), stretches);
    expect([...small.keys()]).toEqual([0, 3]);
    for (const run of [0, 3]) {
      expect(small.get(run)!.frames).toBe(large.get(run)!.frames);
      expect(small.get(run)!.sum).toEqual(large.get(run)!.sum);
    }
    // Frames wholly inside 0.5–2.5 s: starts at 50 … 197 (10 ms grid, 25 ms frames).
    expect(small.get(0)!.frames).toBe(198);
  });

  it("the recording's cepstra are those of the whole signal at once, and a stretch takes the frames wholly inside it", async () => {
    const signal = await samplesOf(sharedAudio('speakers/speaker2_a_en_16k.wav'));
    const whole = cepstra(signal);
    const recording = recordingCepstra(signal, 4097);
    expect(recording.within(0, signal.length / 16000)).toEqual(whole);
    const { features, frames } = recording.within(1.005, 1.3);
    // Frame k spans 0.01 k … 0.01 k + 0.025 s: frame 100 starts before 1.005 s, 101 … 127 lie inside, 128 ends at 1.305 s.
    expect(frames).toBe(27);
    expect(features).toEqual(whole.features.subarray(101 * CEPSTRAL_DIMENSIONS, 128 * CEPSTRAL_DIMENSIONS));
  });
});

/** The cepstra of `signal` collected as the diarization collects them, in blocks of `blockSamples`. */
function recordingCepstra(signal: Float32Array, blockSamples: number): RecordingCepstra {
  const recording = new RecordingCepstra(signal.length);
  for (let start = 0; start < signal.length; start += blockSamples) recording.add(signal.slice(start, start + blockSamples));
  return recording.finish();
}

describe('mergeSpeakersByVoice', () => {
  it('joins the numbers that are one voice, never two speakers who talk together; a speaker too short to judge goes to the voice that explains it best', async () => {
    const [first, second, other] = await Promise.all([
      samplesOf(sharedAudio('speakers/speaker1_a_en_16k.wav')),
      samplesOf(sharedAudio('speakers/speaker1_b_en_16k.wav')),
      samplesOf(sharedAudio('speakers/speaker2_a_en_16k.wav')),
    ]);
    // Speaker 0 and 2 are one voice (window linking lost them across a silence); 1 is another; 3 said one word.
    const runs = [
      { speaker: 0, startSeconds: 0, endSeconds: 8 },
      { speaker: 1, startSeconds: 9, endSeconds: 17 },
      { speaker: 2, startSeconds: 30, endSeconds: 36 },
      { speaker: 3, startSeconds: 40, endSeconds: 40.5 },
    ];
    const statistics = new Map([[0, statisticsOf(first)], [1, statisticsOf(other)], [2, statisticsOf(second)], [3, statisticsOf(first.subarray(0, 4000))]]);
    const options = { penaltyWeight, minVoiceSeconds: 1.5, maxSharedSeconds: 1, varianceFloor: floor };
    expect(mergeSpeakersByVoice(runs, statistics, options).map((run) => run.speaker)).toEqual([0, 1, 0, 0]);

    // The same voices talking over each other for 2 s: not one person.
    const overlapping = runs.map((run) => (run.speaker === 2 ? { ...run, startSeconds: 6, endSeconds: 12 } : run));
    const kept = mergeSpeakersByVoice(overlapping, statistics, options).map((run) => run.speaker);
    expect(kept.slice(0, 3)).toEqual([0, 1, 2]);
    expect([0, 2]).toContain(kept[3]);
    // Without any solo speech, a speaker only ever talks over others: kept.
    expect(mergeSpeakersByVoice(runs, new Map([...statistics].filter(([speaker]) => speaker !== 3)), options).map((run) => run.speaker)).toEqual([0, 1, 0, 3]);

    // Hints: at most two (the most alike join first, talking together or not); at least four (nothing joins).
    expect(new Set(mergeSpeakersByVoice(runs, statistics, { ...options, maxSpeakers: 2 }).map((run) => run.speaker)).size).toBe(2);
    expect(mergeSpeakersByVoice(runs, statistics, { ...options, minSpeakers: 4 }).map((run) => run.speaker)).toEqual([0, 1, 2, 3]);
  });
});
