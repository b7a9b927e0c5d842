import { randomUUID } from 'node:crypto';
import { afterAll, afterEach, beforeAll, beforeEach } from 'vitest';
import type { CallStatus } from '../../src/domain/calls/callTypes.js';
import { WorkerPool } from '../../src/infrastructure/workers/WorkerPool.js';
import type { StageContext } from '../../src/pipeline/StageContext.js';
import type { CallPipeline, PipelineJob, PipelineResult } from '../../src/processing/CallPipeline.js';
import type { StageDefinition } from '../../src/processing/CallRun.js';
import { ProcessingEngine, type EngineDependencies } from '../../src/processing/ProcessingEngine.js';
import type { ProcessingEventRecord } from '../../src/processing/ProcessingEventRepository.js';
import { wavFile } from './audioFixtures.js';
import { postUpload, type UserClient } from './callInspection.js';
import { analysisV2Fixture, transcriptFixture } from './seedCalls.js';
import { startTestApp, type TestApp } from './startTestApp.js';
import { uploadForm } from './uploads.js';

/**
 * Polls `condition` every 20 ms until it returns a value other than `undefined` or `false`, and
 * returns that value; fails naming `what` after `timeoutMs` (a bound, not a timed assertion).
 */
export async function waitFor<T>(what: string, condition: () => T | undefined | false | Promise<T | undefined | false>, timeoutMs = 10_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await condition();
    if (value !== undefined && value !== false) return value;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/**
 * A point inside a stage that the test opens when it chooses, so it can look at the call while
 * the stage runs. A gate that honours the abort signal rejects with the abort reason as a
 * well-behaved stage does; one that ignores it models a stuck stage that ends late.
 */
export class StageGate {
  /** The context of the stage waiting at the gate, once one has reached it. */
  context?: StageContext;
  private openGate!: () => void;
  private readonly opened = new Promise<void>((resolve) => { this.openGate = resolve; });

  constructor(private readonly options: { honourAbort: boolean } = { honourAbort: true }) {}

  get isReached(): boolean {
    return this.context !== undefined;
  }

  /** Resolves with the waiting stage's context once a stage has reached the gate. */
  reached(timeoutMs?: number): Promise<StageContext> {
    return waitFor('a stage to reach the gate', () => this.context, timeoutMs);
  }

  open(): void {
    this.openGate();
  }

  /** Stage work: waits until the gate is opened (or, if it honours abort, until the run is given up). */
  readonly pass = async (context: StageContext): Promise<void> => {
    this.context = context;
    if (!this.options.honourAbort) return this.opened;
    await new Promise<void>((resolve, reject) => {
      const onAbort = () => reject(context.signal.reason);
      if (context.signal.aborted) onAbort();
      context.signal.addEventListener('abort', onAbort, { once: true });
      void this.opened.then(() => {
        context.signal.removeEventListener('abort', onAbort);
        resolve();
      });
    });
  };
}

/** The stages of the test pipeline: transcription, then analysis, then optional action-item extraction. */
export const testStages = {
  transcription: { name: 'transcription', phase: 'TRANSCRIBING', weight: 0.6 },
  analysis: { name: 'analysis', phase: 'ANALYZING', weight: 0.3, transientRetries: 1 },
  actionItems: { name: 'actionItems', phase: 'ANALYZING', weight: 0.1 },
} as const satisfies Record<string, StageDefinition>;

/** The quality warning the test pipeline gives when action-item extraction fails. */
export const actionItemWarning = 'Action items could not be extracted from this call';

export type ActionItemDraft = PipelineResult['actionItems'][number];

/** Action items as an extraction stage returns them (fresh ids every time). */
export function actionItemDrafts(titles: readonly string[]): ActionItemDraft[] {
  const now = Date.now();
  return titles.map((title, index) => ({
    id: randomUUID(), title, description: null, dueDate: null, status: 'PENDING' as const,
    sourceText: 'priority=medium; segments=seg_0001', ownerSpeakerId: 'spk_0', ownerSpeakerLabel: 'Diane',
    ownerDisplayName: 'Diane', ownerRole: 'USER', sourceSegmentIds: JSON.stringify(['seg_0001']),
    intent: 'call', intentMetadata: null, createdAt: now + index, updatedAt: now + index,
  }));
}

export const defaultActionItemTitles = ['Send the contract', 'Call back about pricing'];

type StageWork<T> = (context: StageContext, job: PipelineJob) => Promise<T>;

export interface TestPipelineSteps {
  /** Work of the transcription stage. Defaults to finishing at once. */
  transcription?: StageWork<void>;
  /** Work of the analysis stage; its return value is stored as the analysis. Defaults to the v2 fixture. */
  analysis?: StageWork<Record<string, unknown> | void>;
  /** The action-item extraction. Defaults to two items. */
  actionItems?: StageWork<ActionItemDraft[]>;
  /** Extra analysis attempts after a transient failure. Defaults to `1`. */
  analysisRetries?: number;
}

/**
 * A pipeline shaped like the production one (transcription in TRANSCRIBING, analysis and
 * action-item extraction in ANALYZING) whose stages the test controls; it returns the fixtures.
 */
export function testPipeline(steps: TestPipelineSteps = {}): CallPipeline {
  return async (job, run) => {
    await run.stage(testStages.transcription, async (context) => { await steps.transcription?.(context, job); });
    await run.enterPhase('ANALYZING');
    const analysis = await run.stage({ ...testStages.analysis, transientRetries: steps.analysisRetries ?? 1 }, async (context) => ({
      ...analysisV2Fixture(),
      ...(await steps.analysis?.(context, job)),
    }));
    const actionItems = await run.optionalStage(
      testStages.actionItems,
      async (context) => (steps.actionItems ? steps.actionItems(context, job) : actionItemDrafts(defaultActionItemTitles)),
      [],
      actionItemWarning,
    );
    return { transcript: transcriptFixture(job.callId, Date.now()), analysis, analysisProducer: { analyser: 'test' }, actionItems, durationSeconds: 42 };
  };
}

export interface TestEngine {
  engine: ProcessingEngine;
  /** Stops the engine (no grace unless given) and stops listening for uploads. */
  stop(graceMs?: number): ReturnType<ProcessingEngine['stop']>;
}

export interface EngineTestContext {
  /** This test's app: fresh for every test, on its own DATA_DIR. */
  readonly testApp: TestApp;
  /** Replaces this test's app by one started with other settings (added to the file's). */
  restartApp(env: Record<string, string>): Promise<TestApp>;
  /**
   * A started engine on the app's services, woken by uploads as `startProcessing` wires it;
   * stopped after the test. Resolves once its start-up take-over of calls left in flight is done.
   */
  startEngine(pipeline: CallPipeline, options?: Pick<EngineDependencies, 'missingModels'>): Promise<TestEngine>;
  /** An engine that was never started: no recovery, takes no call (to run a sweep on its own). */
  idleEngine(pipeline?: CallPipeline): ProcessingEngine;
}

/**
 * Registers the hooks of an engine test file: one worker pool for the file, and for every test
 * a fresh app (WORKER_CONCURRENCY 1 unless `env` says otherwise) whose engines are stopped and
 * whose DATA_DIR is removed after it.
 */
export function useEngineTestApp(env: Record<string, string> = {}): EngineTestContext {
  let testApp: TestApp | undefined;
  let pool: WorkerPool | undefined;
  const engines = new Set<TestEngine>();
  const started = () => {
    if (!testApp || !pool) throw new Error('the engine test app exists only while a test runs');
    return { testApp, pool };
  };
  const newEngine = (pipeline: CallPipeline, options: Pick<EngineDependencies, 'missingModels'> = {}) => {
    const current = started();
    const { services } = current.testApp;
    // Exclusive, as `startProcessing` makes an engine on the embedded database: every test app has
    // a database of its own (on a PostgreSQL run too), so an engine started on it may take over
    // every call an earlier engine held, as a service restarted after a crash does.
    return new ProcessingEngine({ services, pool: current.pool, pipeline, log: current.testApp.app.log, exclusive: true, ...options });
  };

  beforeAll(() => { pool = new WorkerPool(1); });
  afterAll(async () => { await pool?.close(); });
  beforeEach(async () => { testApp = await startTestApp({ WORKER_CONCURRENCY: '1', ...env }); });
  afterEach(async () => {
    await Promise.all([...engines].map((testEngine) => testEngine.stop()));
    await testApp?.close();
    testApp = undefined;
  });

  return {
    get testApp() { return started().testApp; },
    restartApp: async (otherEnv) => {
      await started().testApp.close();
      testApp = await startTestApp({ WORKER_CONCURRENCY: '1', ...env, ...otherEnv });
      return testApp;
    },
    startEngine: async (pipeline, options) => {
      const engine = newEngine(pipeline, options);
      const stopListening = started().testApp.services.queueSignal.listen(() => engine.wake());
      const testEngine: TestEngine = {
        engine,
        stop: (graceMs = 0) => {
          stopListening();
          engines.delete(testEngine);
          return engine.stop(graceMs);
        },
      };
      engines.add(testEngine);
      await engine.start();
      return testEngine;
    },
    idleEngine: (pipeline = testPipeline()) => newEngine(pipeline),
  };
}

/** Waits until the engine has no run in progress (its last run has cleaned up). */
export function engineIdle(engine: ProcessingEngine, timeoutMs?: number): Promise<true> {
  return waitFor('the engine to finish its runs', () => engine.activeCallIds.length === 0, timeoutMs);
}

export interface CallView {
  status: CallStatus;
  errorReason: string | null;
}

/** The call as GET /api/calls/{id} shows it. */
export async function callView(client: UserClient, callId: string): Promise<CallView> {
  const response = await client(`/api/calls/${callId}`);
  if (response.status !== 200) throw new Error(`GET /api/calls/${callId} answered ${response.status}`);
  const { status, errorReason } = (await response.json()) as CallView;
  return { status, errorReason };
}

/** Statuses as GET /api/calls/status shows them, by call id. */
export async function statusesOf(client: UserClient, callIds: readonly string[]): Promise<Record<string, CallStatus>> {
  const response = await client(`/api/calls/status?ids=${callIds.join(',')}`);
  if (response.status !== 200) throw new Error(`GET /api/calls/status answered ${response.status}`);
  const { items } = (await response.json()) as { items: { callId: string; status: CallStatus }[] };
  return Object.fromEntries(items.map((item) => [item.callId, item.status]));
}

/**
 * Polls GET /api/calls/{id} until the call has `status`; returns what it shows then. Fails at
 * once if the call ends in the other terminal status.
 */
export function waitForStatus(client: UserClient, callId: string, status: CallStatus, timeoutMs?: number): Promise<CallView> {
  return waitFor(`call ${callId} to be ${status}`, async () => {
    const view = await callView(client, callId);
    if (view.status !== status && (view.status === 'COMPLETED' || view.status === 'FAILED')) {
      throw new Error(`call ${callId} ended ${view.status} (${view.errorReason ?? 'no reason'}) instead of ${status}`);
    }
    return view.status === status ? view : undefined;
  }, timeoutMs);
}

/** The call's processing events as (stage, outcome) pairs, oldest first. */
export async function stageOutcomes(engine: ProcessingEngine, callId: string): Promise<[string, string][]> {
  return (await engine.events.forCall(callId)).map((event: ProcessingEventRecord) => [event.stage, event.outcome]);
}

/** Uploads a short WAV through POST /api/calls/analyze and returns the accepted call's id. */
export async function uploadCall(client: UserClient, audio: Buffer = wavFile(0.5)): Promise<string> {
  const response = await postUpload(client, uploadForm(audio, 'call.wav', { metadata: { title: 'Pricing call', contactName: 'Sheila' } }));
  if (response.status !== 202) throw new Error(`upload answered ${response.status}: ${await response.text()}`);
  return ((await response.json()) as { callId: string }).callId;
}
