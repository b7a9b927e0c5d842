/**
 * Every scripted call `npm run eval:analysis` scores, in report order: the original calls (with
 * their held-out ones), then the everyday calls: two tuning sets (the second was the first
 * held-out set, opened after round 1), the round 2 to 7 sets (held out, then opened in rounds 4
 * to 9), and the round 8 and round 9 held-out sets (`round8`, `round9`).
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
