import { readFile } from 'node:fs/promises';
import { expect, it } from 'vitest';
import { RecordingCepstra } from '../../../../src/pipeline/diarization/speakers/RecordingCepstra.js';
import { resegmentByVoice } from '../../../../src/pipeline/diarization/speakers/resegmentByVoice.js';
import { collectVoiceStatistics, soloStretches, VoiceStatistics } from '../../../../src/pipeline/diarization/speakers/voiceStatistics.js';
import { sharedAudio } from '../stereoCall.js';

/** 16-bit mono WAV samples scaled to -1..1 (the shared clips have a 44-byte header). */
async function samplesOf(path: string): Promise<Float32Array> {
  const bytes = await readFile(path);
  const samples = new Float32Array((bytes.length - 44) / 2);
  for (let index = 0; index < samples.length; index++) samples[index] = bytes.readInt16LE(44 + 2 * index) / 32768;
  return samples;
}

const options = { blockFrames: 25, switchPenalty: 30, minPartSeconds: 0.5, varianceFloor: 0.01, marginSeconds: 0.1, minStretchSeconds: 0.3, penaltyWeight: 1.3 };

it('moves speech of another modelled voice out of a mixed turn, and leaves the turn\'s own voice', async () => {
  // Speaker 1 (two clips, 14.1 s) then speaker 2 (7.8 s) end to end. The segmentation gave
  // speaker 0 the first 16.1 s (speaker 1, then 2 s of speaker 2), speaker 1 the rest.
  const clips = await Promise.all(['speaker1_a_en_16k.wav', 'speaker1_b_en_16k.wav', 'speaker2_a_en_16k.wav'].map((file) => samplesOf(sharedAudio(`speakers/${file}`))));
  const audio = new Float32Array(clips.reduce((sum, clip) => sum + clip.length, 0));
  clips.reduce((offset, clip) => { audio.set(clip, offset); return offset + clip.length; }, 0);
  const change = (clips[0]!.length + clips[1]!.length) / 16000;
  const end = audio.length / 16000;
  const runs = [{ speaker: 0, startSeconds: 0, endSeconds: change + 2 }, { speaker: 1, startSeconds: change + 2, endSeconds: end }];
  const recording = new RecordingCepstra(audio.length);
  recording.add(audio);
  const ofRuns = collectVoiceStatistics(recording.finish(), soloStretches(runs, 0.1, 0.3));
  const voices = new Map<number, VoiceStatistics>([[0, ofRuns.get(0)!], [1, ofRuns.get(1)!]]);

  const { runs: resegmented, voices: after } = resegmentByVoice(recording, runs, voices, options);

  // One round moves at least half of the intrusion (the mixed voice was modelled on it, so its
  // first frames still fit there; the next rounds, re-estimated, take more), and nothing of speaker 1's own speech.
  const moved = resegmented.filter((run) => run.speaker === 1 && run.endSeconds <= change + 2 + 1e-6);
  expect(moved.reduce((sum, run) => sum + run.endSeconds - run.startSeconds, 0)).toBeGreaterThanOrEqual(0.9);
  expect(Math.min(...moved.map((run) => run.startSeconds))).toBeGreaterThan(change - 0.3);
  // Nothing of the recording is lost or doubled.
  expect(resegmented.reduce((sum, run) => sum + run.endSeconds - run.startSeconds, 0)).toBeCloseTo(end, 6);
  // The voices as the turns now have them: the moved speech counts for speaker 1, not speaker 0.
  expect(after.get(1)!.frames).toBeGreaterThan(voices.get(1)!.frames);
  expect(after.get(0)!.frames).toBeLessThan(voices.get(0)!.frames);
});

it('changes nothing with fewer than two voices to tell apart', () => {
  const runs = [{ speaker: 0, startSeconds: 0, endSeconds: 2 }];
  expect(resegmentByVoice(new RecordingCepstra(0), runs, new Map(), options).runs).toEqual(runs);
});
