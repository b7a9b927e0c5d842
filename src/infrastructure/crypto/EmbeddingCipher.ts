import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { chmodSync, mkdirSync, openSync, readFileSync, closeSync, writeSync } from 'node:fs';
import { dirname } from 'node:path';

/** Layout of a sealed value: format version ‖ IV ‖ GCM tag ‖ ciphertext. */
const FORMAT_VERSION = 1;
const KEY_BYTES = 32;
const IV_BYTES = 12;
const TAG_BYTES = 16;
const HEADER_BYTES = 1 + IV_BYTES + TAG_BYTES;

/**
 * Encrypts speaker embeddings at rest with AES-256-GCM. Each value is bound to its owner's id
 * (as additional authenticated data), so a row copied onto another user fails to open rather
 * than matching that user's calls against someone else's voice.
 */
export class EmbeddingCipher {
  private constructor(private readonly key: Buffer) {}

  /**
   * The cipher whose key is in `keyPath`: 32 raw bytes, or 64 hex characters. A missing file is
   * created with a fresh random key, readable by the service's user only (mode 0600).
   */
  static fromKeyFile(keyPath: string): EmbeddingCipher {
    return new EmbeddingCipher(readOrCreateKey(keyPath));
  }

  seal(vector: Float32Array, ownerId: string): Buffer {
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv);
    cipher.setAAD(Buffer.from(ownerId, 'utf8'));
    const plaintext = Buffer.from(vector.buffer, vector.byteOffset, vector.byteLength);
    const ciphertext = Buffer.concat([cipher.update(plaintext), cipher.final()]);
    return Buffer.concat([Buffer.of(FORMAT_VERSION), iv, cipher.getAuthTag(), ciphertext]);
  }

  /** The vector sealed for `ownerId`; throws when the value was altered, moved or sealed with another key. */
  open(sealed: Buffer, ownerId: string): Float32Array {
    if (sealed.length < HEADER_BYTES || sealed[0] !== FORMAT_VERSION) throw new Error('sealed embedding has an unknown format');
    const iv = sealed.subarray(1, 1 + IV_BYTES);
    const tag = sealed.subarray(1 + IV_BYTES, HEADER_BYTES);
    const decipher = createDecipheriv('aes-256-gcm', this.key, iv);
    decipher.setAAD(Buffer.from(ownerId, 'utf8'));
    decipher.setAuthTag(tag);
    const plaintext = Buffer.concat([decipher.update(sealed.subarray(HEADER_BYTES)), decipher.final()]);
    if (plaintext.length % Float32Array.BYTES_PER_ELEMENT !== 0) throw new Error('sealed embedding has a partial value');
    // Copy into an aligned buffer: the slice may start at any byte offset.
    return new Float32Array(new Uint8Array(plaintext).buffer);
  }
}

function readOrCreateKey(keyPath: string): Buffer {
  try {
    return parseKey(readFileSync(keyPath), keyPath);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  mkdirSync(dirname(keyPath), { recursive: true, mode: 0o700 });
  const key = randomBytes(KEY_BYTES);
  try {
    // `wx`: two processes starting at once must not each write a different key.
    const descriptor = openSync(keyPath, 'wx', 0o600);
    try {
      writeSync(descriptor, key);
    } finally {
      closeSync(descriptor);
    }
    chmodSync(keyPath, 0o600);
    return key;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return parseKey(readFileSync(keyPath), keyPath);
    throw error;
  }
}

function parseKey(contents: Buffer, keyPath: string): Buffer {
  if (contents.length === KEY_BYTES) return contents;
  const text = contents.toString('utf8').trim();
  if (/^[0-9a-fA-F]{64}$/.test(text)) return Buffer.from(text, 'hex');
  throw new Error(`${keyPath} must hold a 32-byte key (raw, or as 64 hex characters)`);
}
