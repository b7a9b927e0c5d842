import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { Value } from 'typebox/value';
import { afterAll, expect, test } from 'vitest';
import { AnalysisSchema } from '../../src/domain/analysis/analysisSchema.js';
import { TranscriptSchema, type Transcript } from '../../src/domain/transcripts/transcriptSchema.js';

const run = promisify(execFile);
const repoRoot = resolve(import.meta.dirname, '../..');
const scratch = mkdtempSync(join(tmpdir(), 'callscope-analyze-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** The real CLI as a child process; analyze-transcript needs no models, only a data folder to be safe. */
function callscope(args: string[]) {
  return run(process.execPath, ['--import', 'tsx', 'src/cli/callscope.ts', ...args], {
    cwd: repoRoot,
    env: { ...process.env, DATA_DIR: scratch },
  });
}

/** Writes `content` (an object as JSON, a string as is) to a scratch file and returns its path. */
function inputFile(name: string, content: unknown): string {
  const path = join(scratch, name);
  writeFileSync(path, typeof content === 'string' ? content : JSON.stringify(content));
  return path;
}

/** The child's failure: exit code and stderr. */
async function failureOf(args: string[]): Promise<{ code: number; stderr: string }> {
  const failure: unknown = await callscope(args).then(() => undefined, (error: unknown) => error);
  expect(failure).toBeDefined();
  return failure as { code: number; stderr: string };
}

test('callscope analyze-transcript names Diane (USER) and Sheila (CONTACT) from their greetings and prints {transcript, analysis, actionItems}', async () => {
  const path = inputFile('call.json', {
    user: { displayName: 'Diane' },
    metadata: { contactName: 'Sheila', direction: 'INCOMING' },
    language: 'en',
    durationSeconds: 12.5,
    // Out of order on purpose: Sheila's line is listed first but starts later.
    segments: [
      { sourceSpeakerId: 'B', startSeconds: 3.4, endSeconds: 5.9, text: 'Hello Diane, Sheila here.' },
      { sourceSpeakerId: 'A', startSeconds: 0.5, endSeconds: 3.1, text: 'Hi, this is Diane.' },
      { sourceSpeakerId: 'A', startSeconds: 6.2, endSeconds: 8, text: 'Good to hear from you. What can I do for you?' },
    ],
  });
  const { stdout } = await callscope(['analyze-transcript', path]);
  const output = JSON.parse(stdout) as { transcript: Transcript; analysis: unknown; actionItems: unknown[] };
  expect(Object.keys(output)).toEqual(['transcript', 'analysis', 'actionItems']);
  // No language model is installed here, so the built-in analyser ran.
  expect([...Value.Errors(AnalysisSchema, output.analysis)]).toEqual([]);
  expect(output.actionItems).toEqual([]);
  expect(stdout).toContain('\n  "transcript": {');

  const { transcript } = output;
  expect(Value.Check(TranscriptSchema, transcript)).toBe(true);
  expect(transcript).toMatchObject({ language: 'en', durationSeconds: 12.5 });
  expect(transcript.speakers.map(({ sourceSpeakerId, displayName, role }) => [sourceSpeakerId, displayName, role])).toEqual([
    ['A', 'Diane', 'USER'], ['B', 'Sheila', 'CONTACT'],
  ]);
  expect(transcript.segments.map(({ speaker }) => speaker)).toEqual(['Diane', 'Sheila', 'Diane']);
  expect(transcript.speakerResolution).toMatchObject({ usedUserDisplayName: true, usedContactName: true, voiceMatchStatus: 'DISABLED', resolvedSpeakerCount: 2 });
});

test('callscope analyze-transcript refuses an invalid input with exit 64, naming the file and each problem\'s path', async () => {
  const path = inputFile('backwards.json', {
    metadata: { direction: 'SIDEWAYS' },
    segments: [
      { sourceSpeakerId: 'A', startSeconds: 0, endSeconds: 1, text: 'Fine.' },
      { sourceSpeakerId: 'B', startSeconds: 3, endSeconds: 2, text: 'Backwards.' },
    ],
  });
  const failure = await failureOf(['analyze-transcript', path]);
  expect(failure.code).toBe(64);
  expect(failure.stderr).toContain(path);
  expect(failure.stderr).toContain('/segments/1 endSeconds (2) must be >= startSeconds (3)');
  expect(failure.stderr).toContain('/metadata/direction');
  expect(failure.stderr).not.toMatch(/\n\s+at /);
});

test('callscope analyze-transcript refuses a file that is not JSON with exit 64', async () => {
  const path = inputFile('notes.json', 'Hi, this is Diane.');
  const failure = await failureOf(['analyze-transcript', path]);
  expect(failure.code).toBe(64);
  expect(failure.stderr).toContain(`${path} is not valid JSON`);
  expect(failure.stderr).not.toMatch(/\n\s+at /);
});

test('callscope analyze-transcript refuses a missing file with exit 64', async () => {
  const path = join(scratch, 'missing.json');
  const failure = await failureOf(['analyze-transcript', path]);
  expect(failure.code).toBe(64);
  expect(failure.stderr).toContain(`Cannot read ${path}`);
  expect(failure.stderr).toContain('Usage: callscope analyze-transcript <input.json>');
});
