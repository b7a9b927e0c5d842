import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, test } from 'vitest';
import { EmbeddingCipher } from '../../../src/infrastructure/crypto/EmbeddingCipher.js';

const dir = mkdtempSync(join(tmpdir(), 'callscope-cipher-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const vector = Float32Array.from([0.25, -0.5, 0.125, 0.8125]);

test('a missing key file is created with 32 random bytes, readable by the owner only', () => {
  const keyPath = join(dir, 'keys', 'voice.key');
  EmbeddingCipher.fromKeyFile(keyPath);
  expect(readFileSync(keyPath)).toHaveLength(32);
  expect(statSync(keyPath).mode & 0o777).toBe(0o600);
});

test('a sealed embedding opens to the same vector for its owner, and the ciphertext does not contain it', () => {
  const cipher = EmbeddingCipher.fromKeyFile(join(dir, 'roundtrip.key'));
  const sealed = cipher.seal(vector, 'user-1');
  expect(sealed).toHaveLength(1 + 12 + 16 + vector.byteLength);
  expect(sealed.includes(Buffer.from(vector.buffer))).toBe(false);
  expect(Array.from(cipher.open(sealed, 'user-1'))).toEqual(Array.from(vector));
  // A fresh IV each time: the same vector never seals to the same bytes.
  expect(cipher.seal(vector, 'user-1').equals(sealed)).toBe(false);
});

test('a value moved to another user, altered, or opened with another key does not open', () => {
  const cipher = EmbeddingCipher.fromKeyFile(join(dir, 'a.key'));
  const sealed = cipher.seal(vector, 'user-1');
  expect(() => cipher.open(sealed, 'user-2')).toThrow();
  const altered = Buffer.from(sealed);
  altered[altered.length - 1]! ^= 1;
  expect(() => cipher.open(altered, 'user-1')).toThrow();
  expect(() => EmbeddingCipher.fromKeyFile(join(dir, 'b.key')).open(sealed, 'user-1')).toThrow();
  expect(() => cipher.open(Buffer.from([9, 1, 2]), 'user-1')).toThrow(/unknown format/);
});

test('an existing key is used as given: raw bytes or 64 hex characters; anything else is refused', () => {
  const hexPath = join(dir, 'hex.key');
  writeFileSync(hexPath, `${'ab'.repeat(32)}\n`);
  const rawPath = join(dir, 'raw.key');
  writeFileSync(rawPath, Buffer.alloc(32, 0xab));
  const sealed = EmbeddingCipher.fromKeyFile(hexPath).seal(vector, 'user-1');
  expect(Array.from(EmbeddingCipher.fromKeyFile(rawPath).open(sealed, 'user-1'))).toEqual(Array.from(vector));
  const shortPath = join(dir, 'short.key');
  writeFileSync(shortPath, 'secret');
  expect(() => EmbeddingCipher.fromKeyFile(shortPath)).toThrow(/32-byte key/);
});
