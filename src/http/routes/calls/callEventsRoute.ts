import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { Services } from '../../../createServices.js';
import { CallStateRepository, type CallState } from '../../../domain/calls/CallStateRepository.js';
import { CallStatusFeed, defaultLookbackMs } from '../../../domain/calls/CallStatusFeed.js';
import { toIsoTimestamp } from '../../../infrastructure/clock.js';
import { currentUser } from '../../auth/authenticate.js';
import { ApiError } from '../../errors.js';
import { CallEventHeadersSchema, CallEventStreamDataSchema, type CallStatusEvent } from '../../schemas/callEventSchemas.js';
import { errorResponses } from '../../schemas/commonSchemas.js';
import { ServerSentEventStream } from '../../ServerSentEventStream.js';
import { StreamSlots } from '../../StreamSlots.js';

/** The reconnection delay suggested to clients (`retry:`), ms. */
const retryMs = 3000;
/** How old a reconnect's `Last-Event-ID` may be and still be caught up on, ms; an older one gets a plain snapshot. */
const replayHorizonMs = 60 * 60_000;

/**
 * `GET /calls/events`: the caller's call status changes as Server-Sent Events, an optional
 * alternative to polling `GET /calls/status`. One {@link CallStatusFeed} per process serves every
 * stream; it polls the database only while a stream is open, so the polling endpoints pay nothing.
 */
export const callEventsRoute: FastifyPluginAsyncTypebox<{ services: Services }> = async (app, { services }) => {
  const { config, clock } = services;
  const states = new CallStateRepository(services.database.sql);
  const feed = new CallStatusFeed(states, {
    clock,
    pollIntervalMs: config.EVENTS_POLL_INTERVAL_MS,
    onError: (error) => app.log.warn({ err: error }, 'live status: could not look for changed calls (database unreachable?)'),
  });
  const slots = new StreamSlots(() => ({ perUser: config.EVENTS_MAX_STREAMS_PER_USER, total: config.EVENTS_MAX_STREAMS }));
  const openStreams = new Set<ServerSentEventStream>();

  // Before the server waits for its connections to end: an open stream never ends by itself.
  app.addHook('preClose', async () => {
    await Promise.all([...openStreams].map((stream) => stream.close()));
  });
  app.addHook('onClose', async () => feed.close());

  app.get('/calls/events', {
    schema: {
      summary: 'Live status of the caller\'s calls (Server-Sent Events)',
      description: 'An optional alternative to polling `GET /api/calls/status`: a `text/event-stream` that opens with a `snapshot` '
        + 'of the caller\'s unfinished calls and then sends a `status` event whenever one of the caller\'s calls changes status, '
        + 'progress or stage (on any node, within about `EVENTS_POLL_INTERVAL_MS`). Comment lines every `EVENTS_HEARTBEAT_MS`. '
        + 'At most `EVENTS_MAX_STREAMS_PER_USER` streams per user and `EVENTS_MAX_STREAMS` per server: one more is 429 `too_many_streams`.',
      headers: CallEventHeadersSchema,
      response: {
        200: { description: 'The event stream', content: { 'text/event-stream': { schema: CallEventStreamDataSchema } } },
        ...errorResponses(401, 429),
      },
    },
  }, async (request, reply) => {
    const user = currentUser(request);
    const openedAt = clock();
    const lastEventAt = lastEventTimeOf(request.headers['last-event-id'], openedAt);
    const slot = slots.take(user.id);
    if (!slot.granted) {
      throw new ApiError('too_many_streams', slot.scope === 'user'
        ? `At most ${slot.limit} live-status streams per user; close one first`
        : 'The server holds as many live-status streams as it allows; poll GET /api/calls/status or retry later', { scope: slot.scope, limit: slot.limit });
    }
    let snapshot: CallState[];
    try {
      // Reaching back the feed's look-back too: changes written late or by a node whose clock lags.
      snapshot = await states.unfinishedOf(user.id, lastEventAt === undefined ? undefined : lastEventAt - defaultLookbackMs);
    } catch (error) {
      slot.release();
      throw error;
    }
    const stream = new ServerSentEventStream(reply, { heartbeatMs: config.EVENTS_HEARTBEAT_MS, retryMs });
    // Subscribed right after the snapshot was read: the feed tells only what a later look finds.
    const unsubscribe = feed.subscribe(user.id, snapshot, (state) => stream.send('status', toCallStatusEvent(state), String(state.updatedAt)));
    openStreams.add(stream);
    stream.send('snapshot', { calls: snapshot.map(toCallStatusEvent) }, String(openedAt));
    void stream.closed.then(() => {
      unsubscribe();
      slot.release();
      openStreams.delete(stream);
    });
    return reply;
  });
};

/** The time a reconnecting client's `Last-Event-ID` stands for (ms), or undefined when there is none usable. */
function lastEventTimeOf(header: string | undefined, now: number): number | undefined {
  const text = header?.trim();
  if (!text || !/^\d{1,15}$/.test(text)) return undefined;
  const at = Number(text);
  return at >= now - replayHorizonMs && at <= now + defaultLookbackMs ? at : undefined;
}

function toCallStatusEvent(state: CallState): CallStatusEvent {
  const inFlight = state.status === 'TRANSCRIBING' || state.status === 'ANALYZING';
  return {
    callId: state.callId,
    status: state.status,
    progress: Math.min(1, Math.max(0, state.progress)),
    ...(inFlight && state.stage !== null ? { stage: state.stage } : {}),
    ...(state.status === 'FAILED' ? { errorReason: state.errorReason ?? 'Processing failed' } : {}),
    updatedAt: toIsoTimestamp(state.updatedAt),
  };
}
