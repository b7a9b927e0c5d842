import { execFile } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, test } from 'vitest';
import { resolveFfmpegBinaries } from '../../../src/pipeline/cleanup/ffmpegBinaries.js';
import { paddedToneSpans, toneFilter, toneOverSpans } from '../../../src/pipeline/redaction/toneOverSpans.js';

const run = promisify(execFile);
const folder = mkdtempSync(join(tmpdir(), 'callscope-tone-'));
const tempDir = mkdtempSync(join(tmpdir(), 'callscope-tone-work-'));
afterAll(() => {
  rmSync(folder, { recursive: true, force: true });
  rmSync(tempDir, { recursive: true, force: true });
});
const { ffmpegPath, ffprobePath } = resolveFfmpegBinaries();

/** 4 s of a 300 Hz "voice" in the given container (stereo, 44.1 kHz). */
async function recording(name: string, codec: string[]): Promise<string> {
  const path = join(folder, name);
  await run(ffmpegPath, ['-v', 'error', '-y', '-f', 'lavfi', '-i', 'sine=frequency=300:duration=4:sample_rate=44100', '-ac', '2', ...codec, path]);
  return path;
}

async function codecOf(path: string): Promise<string> {
  const { stdout } = await run(ffprobePath, ['-v', 'error', '-show_entries', 'stream=codec_name,channels:format=format_name', '-of', 'json', path]);
  const facts = JSON.parse(stdout) as { streams: { codec_name: string; channels: number }[]; format: { format_name: string } };
  return `${facts.format.format_name}/${facts.streams[0]!.codec_name}/${facts.streams[0]!.channels}`;
}

/** Share of the window's energy at 1 kHz (Goertzel over 16 kHz mono). */
async function toneShare(path: string, fromSeconds: number, toSeconds: number): Promise<number> {
  const { stdout } = await run(ffmpegPath, ['-v', 'error', '-i', path, '-ac', '1', '-ar', '16000', '-f', 'f32le', '-'], { encoding: 'buffer', maxBuffer: 16 * 1024 * 1024 });
  const samples = new Float32Array(stdout.buffer, stdout.byteOffset, stdout.byteLength / 4);
  const coefficient = 2 * Math.cos((2 * Math.PI * 1000) / 16_000);
  let [previous, beforePrevious, energy] = [0, 0, 0];
  const [from, to] = [Math.round(fromSeconds * 16_000), Math.round(toSeconds * 16_000)];
  for (let index = from; index < to; index += 1) {
    const current = samples[index]! + coefficient * previous - beforePrevious;
    beforePrevious = previous;
    previous = current;
    energy += samples[index]! ** 2;
  }
  return (2 * (previous ** 2 + beforePrevious ** 2 - coefficient * previous * beforePrevious)) / ((to - from) * energy);
}

describe('tone over the redacted spans', () => {
  test('spans are padded by 0.15 s, clamped and merged', () => {
    expect(paddedToneSpans([{ startSeconds: 0.1, endSeconds: 1 }, { startSeconds: 1.2, endSeconds: 2 }, { startSeconds: 3, endSeconds: 3.9 }], 4)).toEqual([
      { startSeconds: 0, endSeconds: 2.15 },
      { startSeconds: 2.85, endSeconds: 4 },
    ]);
    expect(toneFilter([{ startSeconds: 1, endSeconds: 2 }], 2)).toBe("aeval='if(between(t,1.000,2.000),0.25*sin(2*PI*1000*t),val(0))|if(between(t,1.000,2.000),0.25*sin(2*PI*1000*t),val(1))':c=same");
  });

  test.each([
    ['call.wav', [] as string[], 'wav'],
    ['call.mp3', ['-c:a', 'libmp3lame', '-b:a', '64k'], 'mp3'],
    ['call.m4a', ['-c:a', 'aac', '-b:a', '64k'], 'm4a'],
    ['call.aac', ['-c:a', 'aac', '-b:a', '64k', '-f', 'adts'], 'aac'],
    ['call.ogg', ['-c:a', 'libvorbis'], 'ogg'],
    ['call.opus.ogg', ['-c:a', 'libopus'], 'ogg'],
  ])('%s keeps its container and codec, gets the tone at the span and keeps the rest', async (name, codec, format) => {
    const path = await recording(name, codec);
    const before = await codecOf(path);
    await toneOverSpans(path, format, [{ startSeconds: 1.5, endSeconds: 2.5 }], { tempDir });
    expect(await codecOf(path)).toBe(before);
    expect(await toneShare(path, 1.4, 2.6)).toBeGreaterThan(0.9);
    expect(await toneShare(path, 0.2, 1.2)).toBeLessThan(0.05);
    expect(await toneShare(path, 2.8, 3.8)).toBeLessThan(0.05);
    // The temp file was renamed into place.
    expect(readdirSync(tempDir)).toEqual([]);
  });

  test('without spans the file is not touched; a file ffmpeg cannot read fails without naming it', async () => {
    const path = await recording('untouched.wav', []);
    const { mtimeMs } = statSync(path);
    await toneOverSpans(path, 'wav', [], { tempDir });
    expect(statSync(path).mtimeMs).toBe(mtimeMs);
    const broken = join(folder, 'broken.wav');
    writeFileSync(broken, 'not audio');
    await expect(toneOverSpans(broken, 'wav', [{ startSeconds: 0, endSeconds: 1 }], { tempDir })).rejects.toMatchObject({ kind: 'unavailable', message: expect.not.stringContaining(folder) });
    expect(readdirSync(tempDir)).toEqual([]);
  });
});
