import { timingSafeEqual } from 'node:crypto';
import { hashPassword, verifyPassword } from '../auth/passwordHash.js';
import type { AdminCredentialRepository } from './AdminCredentialRepository.js';
import { randomSecret, sha256Digest, sha256Hex } from './sha256.js';

/** Shortest admin password accepted, characters. */
export const minPasswordLength = 12;
/** How long a setup token is accepted; a start while no password is set issues a fresh one. */
export const setupTokenLifetimeMs = 24 * 60 * 60_000;

/**
 * The one admin account: its password (scrypt) and, until the password is first set, the
 * one-time setup token (sha256) that allows setting it.
 */
export class AdminAccount {
  constructor(private readonly credentials: AdminCredentialRepository) {}

  async hasPassword(): Promise<boolean> {
    return (await this.credentials.get('password')) !== undefined;
  }

  async checkPassword(password: string): Promise<boolean> {
    const stored = await this.credentials.get('password');
    return stored ? verifyPassword(password, stored.secretHash) : false;
  }

  async setPassword(password: string, now: number): Promise<void> {
    await this.credentials.put('password', await hashPassword(password), now);
    await this.credentials.remove('setup_token');
  }

  /**
   * Sets the first password with the setup token, which is used up. `setup_done` once a password
   * exists (also when another request with the token got there first), `bad_token` for a wrong or
   * expired token.
   */
  async completeSetup(token: string, password: string, now: number): Promise<'ok' | 'setup_done' | 'bad_token'> {
    if (await this.hasPassword()) return 'setup_done';
    if (!(await this.checkSetupToken(token, now))) return 'bad_token';
    const hash = await hashPassword(password);
    // The insert decides: of two requests carrying the token (to any node), only one sets a password.
    if (!(await this.credentials.putIfAbsent('password', hash, now))) return 'setup_done';
    await this.credentials.remove('setup_token');
    return 'ok';
  }

  /** A new setup token (replacing any earlier one), valid for 24 hours; returned once, stored hashed. */
  async issueSetupToken(now: number): Promise<string> {
    const token = randomSecret();
    await this.credentials.put('setup_token', sha256Hex(token), now, now + setupTokenLifetimeMs);
    return token;
  }

  /** Whether `token` is the current, unexpired setup token (digests compared in constant time). */
  async checkSetupToken(token: string, now: number): Promise<boolean> {
    const stored = await this.credentials.get('setup_token');
    if (!stored || (stored.expiresAt !== null && stored.expiresAt <= now)) return false;
    return timingSafeEqual(sha256Digest(token), Buffer.from(stored.secretHash, 'hex'));
  }
}
