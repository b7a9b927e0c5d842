import { sql } from 'drizzle-orm';
import { createHash, randomBytes } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { EmbeddingCipher } from '../../../src/infrastructure/crypto/EmbeddingCipher.js';
import { tempFiles } from '../../helpers/callInspection.js';
import { startTestApp, type TestApp } from '../../helpers/startTestApp.js';
import { speakerClips } from '../../pipeline/voice/toyVoiceModel.js';
import { postVoiceSample, speakerSample, toyModelFolder, transcode, userIdOf, voiceEnv, voiceProfileRow } from './voiceProfileHelpers.js';

/** Output size of the toy model. */
const DIMENSION = 4;

let model: Awaited<ReturnType<typeof toyModelFolder>>;
beforeAll(async () => { model = await toyModelFolder(); });
afterAll(() => { model.remove(); });

/** Every file under `folder`, as paths relative to it (with `/`). */
function filesUnder(folder: string): string[] {
  return readdirSync(folder, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => relative(folder, join(entry.parentPath, entry.name)).split(sep).join('/'))
    .sort();
}

const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

/**
 * What may be under DATA_DIR after voice-profile uploads: the SQLite database (with its WAL files; on a
 * PostgreSQL run there is none) and the key.
 */
const allowedFile = /^(callscope\.db(-wal|-shm|-journal)?|keys\/voice-embeddings\.key)$/;

async function expectCreated(response: Response): Promise<void> {
  expect(response.status, await response.clone().text()).toBe(201);
}

describe('voice samples and embeddings at rest (default key file)', () => {
  let testApp: TestApp;
  let m4aSample: Buffer;
  let mp3Sample: Buffer;
  const keyPath = () => join(testApp.dataDir, 'keys', 'voice-embeddings.key');
  beforeAll(async () => {
    testApp = await startTestApp(voiceEnv(model.modelPath));
    [m4aSample, mp3Sample] = await Promise.all([
      transcode(speakerClips.speaker1a, join(model.folder, 'privacy.m4a'), ['-c:a', 'aac']),
      transcode(speakerClips.speaker1a, join(model.folder, 'privacy.mp3')),
    ]);
  });
  afterAll(async () => { await testApp?.close(); });

  test('no encryption key exists before the first profile is stored (reading a status does not create one)', async () => {
    const response = await testApp.as('early')('/api/users/me/voice-profile/status');
    expect(response.status).toBe(200);

    expect(existsSync(keyPath())).toBe(false);
  });

  test('the key is created on the first profile at <DATA_DIR>/keys/voice-embeddings.key, 32 bytes, mode 0600', async () => {
    await expectCreated(await postVoiceSample(testApp.as('first'), speakerSample()));

    const key = statSync(keyPath());
    expect(key.size).toBe(32);
    expect(key.mode & 0o777).toBe(0o600);
  });

  test.each([
    ['WAV', 'sample.wav', () => speakerSample()],
    ['M4A', 'sample.m4a', () => m4aSample],
    ['MP3', 'sample.mp3', () => mp3Sample],
  ])('after a %s upload no copy of the sample remains anywhere under DATA_DIR', async (_format, fileName, sample) => {
    const bytes = sample();
    const user = `copy-${fileName}`;

    await expectCreated(await postVoiceSample(testApp.as(user), bytes, { fileName }));

    const files = filesUnder(testApp.dataDir);
    expect(files.filter((file) => !allowedFile.test(file))).toEqual([]);
    // The database file is there on SQLite only: on PostgreSQL the rows live in the server.
    expect(files.includes('callscope.db')).toBe(testApp.services.database.dialect === 'sqlite');
    expect(files).toContain('keys/voice-embeddings.key');
    expect(tempFiles(testApp.dataDir)).toEqual([]);
    const digest = sha256(bytes);
    for (const file of files) expect(sha256(readFileSync(join(testApp.dataDir, file))), file).not.toBe(digest);
  });

  test('the stored embedding is sealed: version, IV, tag and 4 bytes per value, opening only with this key and for this user', async () => {
    const client = testApp.as('sealed');
    const userId = await userIdOf(client);
    await expectCreated(await postVoiceSample(client, speakerSample()));

    const row = (await voiceProfileRow(testApp, userId))!;
    const embedding = (await testApp.services.voiceProfiles.embeddingOf(userId))!;

    // What the service decrypts: a unit-length vector of the model's dimension.
    expect(embedding.model).toBe('toy-embedding.onnx');
    expect(embedding.vector).toHaveLength(DIMENSION);
    expect(Math.hypot(...embedding.vector)).toBeCloseTo(1, 5);
    // What is stored: 1 + 12 + 16 + 4·dimension bytes, none of it the plain vector.
    expect(row.embedding_dimension).toBe(DIMENSION);
    expect(row.embedding_model).toBe('toy-embedding.onnx');
    expect(row.encrypted_embedding).toHaveLength(1 + 12 + 16 + 4 * DIMENSION);
    const plain = Buffer.from(embedding.vector.buffer, embedding.vector.byteOffset, embedding.vector.byteLength);
    expect(row.encrypted_embedding.includes(plain)).toBe(false);
    for (const value of embedding.vector) {
      const single = Buffer.alloc(4);
      single.writeFloatLE(value);
      expect(row.encrypted_embedding.includes(single)).toBe(false);
    }
    // The key file opens it for its owner only; another key opens nothing.
    const cipher = EmbeddingCipher.fromKeyFile(keyPath());
    expect(Array.from(cipher.open(row.encrypted_embedding, userId))).toEqual(Array.from(embedding.vector));
    const someoneElse = await userIdOf(testApp.as('someone-else'));
    expect(() => cipher.open(row.encrypted_embedding, someoneElse)).toThrow();
    const otherKeyFile = join(model.folder, 'other.key');
    expect(() => EmbeddingCipher.fromKeyFile(otherKeyFile).open(row.encrypted_embedding, userId)).toThrow();
  });

  test('a row copied onto another user fails to open rather than giving them this voice', async () => {
    const owner = await userIdOf(testApp.as('copy-owner'));
    const thief = await userIdOf(testApp.as('copy-thief'));
    await expectCreated(await postVoiceSample(testApp.as('copy-owner'), speakerSample()));
    await expectCreated(await postVoiceSample(testApp.as('copy-thief'), readFileSync(speakerClips.speaker2a)));

    await testApp.services.database.sql.run(sql`update voice_profiles
      set encrypted_embedding = (select encrypted_embedding from voice_profiles where user_id = ${owner}) where user_id = ${thief}`);

    await expect(testApp.services.voiceProfiles.embeddingOf(thief)).rejects.toThrow();
    expect((await testApp.services.voiceProfiles.embeddingOf(owner))!.vector).toHaveLength(DIMENSION);
  });

  test('no log line carries the embedding, its sealed form or a field named after it', async () => {
    const client = testApp.as('logged');
    const userId = await userIdOf(client);
    const linesBefore = testApp.logLines.length;
    await expectCreated(await postVoiceSample(client, speakerSample()));
    await client('/api/users/me/voice-profile/status');

    const lines = testApp.logLines.slice(linesBefore);
    expect(lines.some((line) => line.msg === 'voice profile saved')).toBe(true);
    const text = lines.map((line) => JSON.stringify(line)).join('\n');
    const { vector } = (await testApp.services.voiceProfiles.embeddingOf(userId))!;
    for (const value of vector) {
      expect(text).not.toContain(String(value));
      expect(text).not.toContain(value.toPrecision(6));
    }
    const sealed = (await voiceProfileRow(testApp, userId))!.encrypted_embedding;
    expect(text).not.toContain(sealed.toString('base64'));
    expect(text).not.toContain(sealed.toString('hex'));
    const keys = new Set<string>();
    const collectKeys = (value: unknown): void => {
      if (value && typeof value === 'object') {
        for (const [key, inner] of Object.entries(value)) { keys.add(key.toLowerCase()); collectKeys(inner); }
      }
    };
    lines.forEach(collectKeys);
    for (const key of keys) expect(key).not.toMatch(/embedding|vector/);
  });
});

describe('SERVICE_VOICE_KEY_FILE', () => {
  let testApp: TestApp;
  let keyFile: string;
  const hexKey = randomBytes(32).toString('hex');
  beforeAll(async () => {
    keyFile = join(model.folder, 'configured.key');
    writeFileSync(keyFile, `${hexKey}\n`, { mode: 0o600 });
    testApp = await startTestApp(voiceEnv(model.modelPath, { SERVICE_VOICE_KEY_FILE: keyFile }));
  });
  afterAll(async () => { await testApp?.close(); });

  test('an existing key given as 64 hex characters seals the embeddings, and no key is made under DATA_DIR', async () => {
    const client = testApp.as('configured');
    const userId = await userIdOf(client);

    await expectCreated(await postVoiceSample(client, speakerSample()));

    expect(existsSync(join(testApp.dataDir, 'keys'))).toBe(false);
    expect(readFileSync(keyFile, 'utf8')).toBe(`${hexKey}\n`);
    const row = (await voiceProfileRow(testApp, userId))!;
    const rawKeyFile = join(model.folder, 'configured-raw.key');
    writeFileSync(rawKeyFile, Buffer.from(hexKey, 'hex'));
    const opened = EmbeddingCipher.fromKeyFile(rawKeyFile).open(row.encrypted_embedding, userId);
    expect(Array.from(opened)).toEqual(Array.from((await testApp.services.voiceProfiles.embeddingOf(userId))!.vector));
  });
});
