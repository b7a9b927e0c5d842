import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { LegalHoldRepository } from '../../../src/domain/legalHolds/LegalHoldRepository.js';
import { deleteUserData } from '../../../src/domain/users/deleteUserData.js';
import { openDatabase } from '../../../src/infrastructure/database/openDatabase.js';
import { waitFor } from '../../helpers/processingHarness.js';
import { seedCall, seedUser } from '../../helpers/seedCalls.js';
import { startTestApp, type TestApp } from '../../helpers/startTestApp.js';
import { testDatabaseEngine } from '../../helpers/testDatabase.js';

/**
 * A legal hold placed while a deletion runs: the deletion either sees it and deletes nothing
 * more, or finishes before the hold exists. On PostgreSQL the hold may come from another node,
 * so the ordering rests on row locks (the call's, and its owner's); on SQLite the one write
 * connection orders them.
 */
let testApp: TestApp;
beforeAll(async () => { testApp = await startTestApp(); });
afterAll(async () => { await testApp.close(); });

const holdsOf = (app: TestApp) => new LegalHoldRepository(app.services.database.sql);

describe('the user row\'s removal, the last step of a hard delete', () => {
  test('refuses when a user hold arrived after the calls were deleted, and keeps the user and the hold', async () => {
    const user = await seedUser(testApp.services, 'late-hold');
    await holdsOf(testApp).placeHold({ scope: 'user', userId: user.id }, 'Matter 2026-40', testApp.services.clock());

    expect(await testApp.services.users.removeOnceEmpty(user.id)).toEqual({ outcome: 'held', userHeld: true, callIds: [] });
    expect(await testApp.services.users.findById(user.id)).toBeDefined();
  });

  test('refuses when a call arrived meanwhile (its files would outlive a cascade), naming it', async () => {
    const callId = await seedCall(testApp.services, 'late-upload');
    const user = await seedUser(testApp.services, 'late-upload');

    expect(await testApp.services.users.removeOnceEmpty(user.id)).toEqual({ outcome: 'calls_remain', callIds: [callId] });
    expect(await testApp.services.users.findById(user.id)).toBeDefined();
  });

  test('the hard delete answers such a call as in progress and deletes nothing more', async () => {
    const user = await seedUser(testApp.services, 'racing-upload');
    let uploaded: string | undefined;
    const calls = new Proxy(testApp.services.calls, {
      get(target, property, receiver) {
        // The upload lands after the deletion listed the user's calls (none) and before the user row goes.
        if (property === 'allIdsOf') return async (userId: string) => {
          const ids = await target.allIdsOf(userId);
          uploaded = await seedCall(testApp.services, 'racing-upload');
          return ids;
        };
        return Reflect.get(target, property, receiver) as unknown;
      },
    });

    const deletion = await deleteUserData({ ...testApp.services, calls }, user.id);

    expect(deletion).toEqual({ outcome: 'in_progress', callIds: [uploaded] });
    expect(await testApp.services.users.findById(user.id)).toBeDefined();
  });
});

describe.runIf(testDatabaseEngine === 'postgres')('on PostgreSQL, a user hold placed on another node while a call\'s deletion is claimed', () => {
  test('the claim waits for the placement holding the user\'s row and then sees the hold', async () => {
    const callId = await seedCall(testApp.services, 'two-nodes');
    const user = await seedUser(testApp.services, 'two-nodes');
    const otherNode = await openDatabase({ DATA_DIR: testApp.dataDir, DATABASE_URL: testApp.services.config.DATABASE_URL });
    let releasePlacement!: () => void;
    const placementMayFinish = new Promise<void>((resolve) => { releasePlacement = resolve; });
    try {
      let userRowLocked!: () => void;
      const locked = new Promise<void>((resolve) => { userRowLocked = resolve; });
      // What LegalHoldRepository.placeHold does for a user, paused between its lock and its insert.
      const placement = otherNode.sql.transaction(async (tx) => {
        await tx.get(sql`SELECT id FROM users WHERE id = ${user.id}${tx.forUpdate}`);
        userRowLocked();
        await placementMayFinish;
        await tx.run(sql`INSERT INTO legal_holds (id, scope, user_id, call_id, reason, placed_at)
          VALUES ('hold-two-nodes', 'user', ${user.id}, NULL, 'Matter 2026-41', ${testApp.services.clock()})`);
      });
      await locked;

      let claimSettled = false;
      const claim = testApp.services.calls.claimForDeletion(user.id, callId, testApp.services.clock()).finally(() => { claimSettled = true; });
      // Whichever comes first: the claim ended, or PostgreSQL shows a session waiting for a row lock (the claim's: the placement holds its lock, idle).
      const claimState = await waitFor('the claim to wait for a row lock, or to settle', async () => {
        if (claimSettled) return 'settled';
        const waiting = await testApp.services.database.sql.get<{ sessions: number }>(sql`SELECT count(*)::int AS sessions FROM pg_stat_activity
          WHERE datname = current_database() AND wait_event_type = 'Lock'`);
        return (waiting?.sessions ?? 0) > 0 ? 'waiting for a lock' : undefined;
      });
      expect(claimState).toBe('waiting for a lock');
      releasePlacement();
      await placement;

      expect(await claim).toEqual({ outcome: 'held' });
      const row = await testApp.services.database.sql.get<{ deletingSince: number | null }>(sql`SELECT deleting_since AS "deletingSince" FROM calls WHERE id = ${callId}`);
      expect(row?.deletingSince).toBeNull();
    } finally {
      releasePlacement();
      await otherNode.close();
    }
  });
});
