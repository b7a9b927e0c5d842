/**
 * Every scripted call `npm run eval:analysis` scores, in report order: the original calls (with
 * their held-out ones), then the everyday calls: two tuning sets (the second was the first
 * held-out set, opened after round 1), the held-out set, the round 3 held-out set (`unseen`) and
 * the round 4 one (`round4`).
 */
import { analysisCalls, type AnalysisCall } from './analysisCalls.js';
import { everydayHeldOutCalls } from './everydayHeldOutCalls.js';
import { everydayRound4Calls } from './everydayRound4Calls.js';
import { everydayTuneCalls } from './everydayTuneCalls.js';
import { everydayTuneCalls2 } from './everydayTuneCalls2.js';
import { everydayUnseenCalls } from './everydayUnseenCalls.js';

export const evaluationCalls: readonly AnalysisCall[] = [...analysisCalls, ...everydayTuneCalls, ...everydayTuneCalls2, ...everydayHeldOutCalls, ...everydayUnseenCalls, ...everydayRound4Calls];
