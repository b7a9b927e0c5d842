/**
 * Every scripted call `npm run eval:analysis` scores, in report order: the original calls (with
 * their held-out ones, whose misses were read while tuning), then the everyday calls:
 * - tuned on: two tuning sets (since rounds 1 and 2; the second was the first held-out set), the
 *   round 2 to 7 sets (each held out for two rounds, then tuned on since round 4, 5, 6, 7, 8 and 9
 *   in turn), and the calls without actions (`quiet`, since round 11);
 * - judges, never read, and checked by tests for their form only (`judgeSets` in
 *   ./analysisCalls.ts): the round 8, 9, 10, 11 and 12 held-out sets (`round8` … `round12`).
 */
import { analysisCalls, type AnalysisCall } from './analysisCalls.js';
import { everydayHeldOutCalls } from './everydayHeldOutCalls.js';
import { everydayRound4Calls } from './everydayRound4Calls.js';
import { everydayRound5Calls } from './everydayRound5Calls.js';
import { everydayRound6Calls } from './everydayRound6Calls.js';
import { everydayRound7Calls } from './everydayRound7Calls.js';
import { everydayRound8Calls } from './everydayRound8Calls.js';
import { everydayRound9Calls } from './everydayRound9Calls.js';
import { everydayRound10Calls } from './everydayRound10Calls.js';
import { everydayRound11Calls } from './everydayRound11Calls.js';
import { everydayRound12Calls } from './everydayRound12Calls.js';
import { everydayQuietCalls } from './everydayQuietCalls.js';
import { everydayTuneCalls } from './everydayTuneCalls.js';
import { everydayTuneCalls2 } from './everydayTuneCalls2.js';
import { everydayUnseenCalls } from './everydayUnseenCalls.js';

export const evaluationCalls: readonly AnalysisCall[] = [...analysisCalls, ...everydayTuneCalls, ...everydayTuneCalls2, ...everydayHeldOutCalls, ...everydayUnseenCalls, ...everydayRound4Calls, ...everydayRound5Calls, ...everydayRound6Calls, ...everydayRound7Calls, ...everydayRound8Calls, ...everydayRound9Calls, ...everydayRound10Calls, ...everydayRound11Calls, ...everydayRound12Calls, ...everydayQuietCalls];
