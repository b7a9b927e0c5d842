import { Value } from 'typebox/value';
import { AnalysisSchema, type Analysis, type AnalysisProducer, type ActionIntent, type IntentMetadata } from '../../domain/analysis/analysisSchema.js';
import type { SpeakerRole } from '../../domain/transcripts/transcriptSchema.js';
import type { StageContext } from '../StageContext.js';
import { StageFailure } from '../StageFailure.js';
import { packSourceText } from './actionItems/packSourceText.js';
import { reconcileOwner } from './actionItems/reconcileOwner.js';
import type { Analyser, AnalysisInput } from './Analyser.js';
import { groundAnalysis, type GroundingViolation } from './grounding/groundAnalysis.js';
import { buildGroundingCorpus } from './grounding/groundingCorpus.js';

/** An action item ready to be stored (the row's ids, status and timestamps are added by the caller). */
export interface ActionItemDraft {
  title: string;
  description: string | null;
  dueDate: string | null;
  /** See {@link packSourceText}. */
  sourceText: string;
  ownerSpeakerId: string | null;
  ownerSpeakerLabel: string | null;
  ownerDisplayName: string | null;
  ownerRole: SpeakerRole | null;
  sourceSegmentIds: string[];
  intent: ActionIntent;
  intentMetadata: IntentMetadata;
}

export interface AnalysedCall {
  /** Validated against AnalysisSchema, owners reconciled, grounded. */
  analysis: Analysis;
  producer: AnalysisProducer;
  grounding: { violationsBefore: GroundingViolation[]; violationsAfter: GroundingViolation[] };
  actionItems: ActionItemDraft[];
}

/**
 * The analysis stage for either analyser: run it, check its output against the schema,
 * reconcile action-item owners with the transcript's speakers (the specification's rule),
 * remove whatever the transcript and metadata do not support (grounding), check the schema
 * again, and derive the action items to store. An analysis that does not match its schema is
 * an analyser bug: the stage fails (`rejected`) rather than store it.
 */
export async function analyseCall(input: AnalysisInput, analyser: Analyser, context: StageContext): Promise<AnalysedCall> {
  const { analysis: made, producer } = await analyser.analyse(input, context);
  assertValid(made, 'as the analyser made it');
  const speakers = input.transcript.speakers;
  const reconciled: Analysis = {
    ...made,
    actionItems: made.actionItems?.map((item) => ({ ...item, ...reconcileOwner(item, speakers) })) ?? null,
  };
  const corpus = buildGroundingCorpus(input.transcript, input.metadata, input.recordedAt, input.timeZone);
  const { analysis, violationsBefore, violationsAfter } = groundAnalysis(reconciled, corpus);
  assertValid(analysis, 'after grounding');
  const segments = new Map(input.transcript.segments.map((segment) => [segment.id, segment]));
  const actionItems = (analysis.actionItems ?? []).map((item): ActionItemDraft => ({
    title: item.title,
    description: item.description,
    dueDate: item.dueDate,
    sourceText: packSourceText(item, segments),
    ownerSpeakerId: item.ownerSpeakerId,
    ownerSpeakerLabel: item.ownerSpeakerLabel,
    ownerDisplayName: item.ownerDisplayName,
    ownerRole: item.ownerRole,
    sourceSegmentIds: item.sourceSegmentIds,
    intent: item.intent,
    intentMetadata: item.intentMetadata,
  }));
  return { analysis, producer, grounding: { violationsBefore, violationsAfter }, actionItems };
}

function assertValid(analysis: Analysis, when: string): void {
  if (Value.Check(AnalysisSchema, analysis)) return;
  const problems = [...Value.Errors(AnalysisSchema, analysis)].slice(0, 5).map((problem) => `${problem.instancePath || '/'} ${problem.message}`);
  throw new StageFailure('rejected', `The call analysis did not match its schema ${when}`, { cause: new Error(problems.join('; ')) });
}
