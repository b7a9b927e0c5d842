import { Counter, Histogram, Registry, collectDefaultMetrics } from 'prom-client';

/** The Prometheus registry of one app instance (not the global one, so test apps stay apart). */
export class Metrics {
  readonly registry = new Registry();

  readonly httpRequests = new Counter({
    name: 'callscope_http_requests_total',
    help: 'HTTP requests by method, route pattern and status',
    labelNames: ['method', 'route', 'status'] as const,
    registers: [this.registry],
  });

  readonly httpDuration = new Histogram({
    name: 'callscope_http_request_duration_seconds',
    help: 'HTTP request duration by route pattern, seconds',
    labelNames: ['method', 'route'] as const,
    buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 10],
    registers: [this.registry],
  });

  readonly transcriptionCallbacks = new Counter({
    name: 'callscope_transcription_callbacks_total',
    help: 'Transcription provider callbacks by outcome (accepted, duplicate, or why they were refused)',
    labelNames: ['outcome'] as const,
    registers: [this.registry],
  });

  readonly authFailures = new Counter({
    name: 'callscope_auth_failures_total',
    help: 'Requests refused with auth_invalid',
    registers: [this.registry],
  });

  readonly stageDuration = new Histogram({
    name: 'callscope_pipeline_stage_duration_seconds',
    help: 'Pipeline stage runs by stage and outcome (OK, FAILED, RETRIED, INTERRUPTED), seconds',
    labelNames: ['stage', 'outcome'] as const,
    buckets: [0.1, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300, 600, 1800],
    registers: [this.registry],
  });

  readonly stageRetries = new Counter({
    name: 'callscope_pipeline_stage_retries_total',
    help: 'Stage attempts repeated after a transient failure',
    labelNames: ['stage'] as const,
    registers: [this.registry],
  });

  readonly callsFinished = new Counter({
    name: 'callscope_calls_finished_total',
    help: 'Calls that reached a terminal status by status',
    labelNames: ['status'] as const,
    registers: [this.registry],
  });

  /**
   * Each look of the engine at the queue (its timer, about once a second; an upload; a run that
   * ended): `claimed` took calls, `nothing_claimed` found none queued or no free slot,
   * `waiting_for_models` took none because a model calls need is not installed.
   */
  readonly queueLooks = new Counter({
    name: 'callscope_queue_looks_total',
    help: 'Looks at the queue for calls to take by outcome (claimed, nothing_claimed, waiting_for_models)',
    labelNames: ['outcome'] as const,
    registers: [this.registry],
  });

  /** One per call compared with its user's voice profile; no scores or vectors, only the outcome. */
  readonly voiceMatches = new Counter({
    name: 'callscope_voice_matches_total',
    help: 'Voice-profile matches by outcome (matched, no_match, ambiguous, failed)',
    labelNames: ['outcome'] as const,
    registers: [this.registry],
  });

  readonly voiceProfileUploads = new Counter({
    name: 'callscope_voice_profile_uploads_total',
    help: 'Voice samples received by outcome (created, rejected, provider_error)',
    labelNames: ['outcome'] as const,
    registers: [this.registry],
  });

  constructor(options: { processMetrics?: boolean } = {}) {
    if (options.processMetrics !== false) collectDefaultMetrics({ register: this.registry, prefix: 'callscope_' });
  }
}
