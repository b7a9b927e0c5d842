import { describe, expect, test } from 'vitest';
import {
  AuditChainVerifier, auditRecordHash, canonicalDetail, chainRecords, genesisHash, type UnchainedAuditRecord,
} from '../../../src/domain/audit/auditChain.js';

const record = (action: string, at: number): UnchainedAuditRecord => ({
  at, actorKind: 'user', actorId: 'user-1', action, callId: 'call-1', target: null, clientIp: '127.0.0.1', detail: canonicalDetail({ format: 'txt' }),
});

const chain = () => chainRecords(undefined, [record('transcript.read', 1000), record('analysis.read', 2000), record('call.export', 3000), record('call.delete', 4000)]);

describe('the access audit hash chain', () => {
  test('numbers records from 1 and links each to the hash of the one before, starting from 64 zeros', () => {
    const records = chain();
    expect(records.map((entry) => entry.seq)).toEqual([1, 2, 3, 4]);
    expect(records[0]!.previousHash).toBe(genesisHash);
    for (let index = 1; index < records.length; index += 1) expect(records[index]!.previousHash).toBe(records[index - 1]!.hash);
    expect(records[1]!.hash).toBe(auditRecordHash(records[0]!.hash, records[1]!));
    expect(records[0]!.hash).toMatch(/^[0-9a-f]{64}$/);
  });

  test('a later batch continues from the newest record', () => {
    const first = chain();
    const next = chainRecords(first.at(-1), [record('transcript.read', 5000)]);
    expect(next[0]).toMatchObject({ seq: 5, previousHash: first.at(-1)!.hash });
    expect(new AuditChainVerifier().check([...first, ...next])).toBeUndefined();
  });

  test('canonical detail sorts its keys, so one detail always hashes alike', () => {
    expect(canonicalDetail({ b: 1, a: 'x' })).toBe('{"a":"x","b":1}');
    expect(canonicalDetail({})).toBeNull();
    expect(canonicalDetail(undefined)).toBeNull();
  });

  test('an intact chain verifies, also page by page', () => {
    const records = chain();
    const verifier = new AuditChainVerifier();
    expect(verifier.check(records.slice(0, 2))).toBeUndefined();
    expect(verifier.check(records.slice(2))).toBeUndefined();
    expect(verifier.checked).toBe(4);
  });

  test('an edited field breaks the chain at that record', () => {
    const records = chain();
    records[2] = { ...records[2]!, detail: canonicalDetail({ format: 'docx' }) };
    expect(new AuditChainVerifier().check(records)).toMatchObject({ seq: 3, reason: 'hash_mismatch' });
  });

  test('an edit whose hash was recomputed breaks the link to the next record', () => {
    const records = chain();
    const edited = { ...records[1]!, actorId: 'someone-else' };
    records[1] = { ...edited, hash: auditRecordHash(edited.previousHash, edited) };
    expect(new AuditChainVerifier().check(records)).toMatchObject({ seq: 3, reason: 'previous_hash_mismatch' });
  });

  test('a removed record shows as a gap in the seqs', () => {
    const records = chain();
    records.splice(1, 1);
    expect(new AuditChainVerifier().check(records)).toMatchObject({ seq: 3, reason: 'seq_gap', message: expect.stringContaining('record 2 is missing') });
  });

  test('records renumbered to hide a removal do not match their hashes', () => {
    const records = chain();
    records.splice(1, 1);
    const renumbered = records.map((entry, index) => ({ ...entry, seq: index + 1 }));
    expect(new AuditChainVerifier().check(renumbered)).toMatchObject({ seq: 2 });
  });

  test('reordered records break the chain', () => {
    const records = chain();
    [records[1], records[2]] = [records[2]!, records[1]!];
    expect(new AuditChainVerifier().check(records)).toMatchObject({ seq: 3, reason: 'seq_gap' });
  });
});
