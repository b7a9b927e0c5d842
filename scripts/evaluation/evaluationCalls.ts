/**
 * Every scripted call `npm run eval:analysis` scores, in report order: the original calls (with
 * their held-out ones), then the everyday calls' tuning half and their held-out half.
 */
import { analysisCalls, type AnalysisCall } from './analysisCalls.js';
import { everydayHeldOutCalls } from './everydayHeldOutCalls.js';
import { everydayTuneCalls } from './everydayTuneCalls.js';

export const evaluationCalls: readonly AnalysisCall[] = [...analysisCalls, ...everydayTuneCalls, ...everydayHeldOutCalls];
