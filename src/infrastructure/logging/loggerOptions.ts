import type { FastifyServerOptions } from 'fastify';
import pino from 'pino';
import pinoPretty from 'pino-pretty';
import type { Config } from '../../config/configSchema.js';

export interface LogOutputOptions {
  /** Whether stdout is a terminal (decides `LOG_FORMAT=auto`). Defaults to `process.stdout.isTTY`. */
  terminal?: boolean;
  /** Where pretty lines go. Defaults to stdout (file descriptor 1). */
  prettyDestination?: NodeJS.WritableStream;
}

/** What a censored value reads as. */
export const censored = '[redacted]';
/** Field names whose values are never written, at the top of an entry and one level down. */
const secretFields = new Set(['token', 'apiKey', 'password', 'text', 'transcript']);
/** Headers never written, in a `headers` object at the top of an entry or one level down. */
const secretHeaders = ['authorization', 'x-api-key', 'cookie', 'x-local-user-id'];

/**
 * pino settings for the service. Request logs carry method, path, status and timing only:
 * no headers (tokens, API keys, cookies), no query strings, no bodies. Censoring is a second
 * line of defence for anything logged by mistake under the names above.
 *
 * `LOG_FORMAT` only changes how a finished entry is written: censoring and serializers run
 * before the entry reaches the pretty printer, so both formats carry the same fields, masked
 * the same way.
 */
export function loggerOptions(config: Pick<Config, 'LOG_LEVEL' | 'LOG_FORMAT'>, output: LogOutputOptions = {}): FastifyServerOptions['logger'] {
  const options = {
    level: config.LOG_LEVEL,
    // The second line of defence: secrets logged by mistake under these names are censored (see censorSecrets).
    formatters: { log: censorSecrets },
    serializers: {
      req: (request: { method: string; url: string; ip?: string; id?: string }) => ({
        method: request.method,
        path: request.url.split('?')[0],
        remoteAddress: request.ip,
      }),
      res: (reply: { statusCode: number }) => ({ statusCode: reply.statusCode }),
    },
  };
  return { ...options, stream: usesPrettyLogs(config, output.terminal) ? prettyLogStream(output.prettyDestination) : bufferedStdout() };
}

/** How long a JSON log line may wait in the buffer before it is written, ms. */
export const logFlushIntervalMs = 200;

let stdoutDestination: pino.DestinationStream | undefined;

/**
 * JSON lines to stdout in batches: a write system call per line cost about a fifth of what a
 * polled request costs. Lines are written when 4 KiB have gathered or {@link logFlushIntervalMs}
 * has passed, and all of them at exit (pino flushes its asynchronous destinations then); only a
 * SIGKILL or a power cut can lose the last fraction of a second of lines. One per process.
 */
function bufferedStdout(): pino.DestinationStream {
  if (!stdoutDestination) {
    const destination = pino.destination({ dest: 1, sync: false, minLength: 4096 });
    setInterval(() => destination.flush(), logFlushIntervalMs).unref();
    stdoutDestination = destination;
  }
  return stdoutDestination;
}

/**
 * The entry with every secret field (at its top level and one level down, as pino's `x` and
 * `*.x` redaction paths would) and every secret header of a `headers` object replaced by
 * `[redacted]`. Copies only what it changes; the caller's objects are left as they are. A loop
 * over the entry's keys: pino's generic path redaction cost two thirds of a request's log line
 * (9 of 14 µs), which polled endpoints paid on every request.
 */
export function censorSecrets(entry: Record<string, unknown>): Record<string, unknown> {
  return censorLevel(entry, true);
}

function censorLevel(object: Record<string, unknown>, descend: boolean): Record<string, unknown> {
  let result = object;
  const set = (key: string, value: unknown) => {
    if (result === object) result = { ...object };
    result[key] = value;
  };
  for (const key of Object.keys(object)) {
    const value = object[key];
    if (secretFields.has(key)) {
      if (value !== undefined) set(key, censored);
    } else if (key === 'headers' && isRecord(value)) {
      const headers = censorHeaders(value);
      if (headers !== value) set(key, headers);
    } else if (descend && isRecord(value)) {
      const inner = censorLevel(value, false);
      if (inner !== value) set(key, inner);
    }
  }
  return result;
}

function censorHeaders(headers: Record<string, unknown>): Record<string, unknown> {
  const present = secretHeaders.filter((name) => headers[name] !== undefined);
  return present.length === 0 ? headers : { ...headers, ...Object.fromEntries(present.map((name) => [name, censored])) };
}

/**
 * A plain object (a literal or JSON): the kind logged by mistake. Instances (a Fastify request
 * or reply, an Error) are left to their serializers, which write none of these fields; copying
 * one would lose the getters its serializer reads.
 */
function isRecord(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null) return false;
  const prototype = Object.getPrototypeOf(value) as unknown;
  return prototype === Object.prototype || prototype === null;
}

/** Whether entries are written as pretty lines (`LOG_FORMAT`, with `auto` deciding by the terminal). */
export function usesPrettyLogs(config: Pick<Config, 'LOG_FORMAT'>, terminal: boolean = process.stdout.isTTY === true): boolean {
  return config.LOG_FORMAT === 'pretty' || (config.LOG_FORMAT === 'auto' && terminal);
}

/**
 * One line per entry: `12:03:04.567 INFO (processing): call completed {"callId":"…","durationMs":5120}`.
 * Written synchronously in this thread (no transport worker): lines keep their order with what
 * the service prints straight to stdout (the first-run link, model download progress), and
 * nothing is lost when the process exits. Colours follow the terminal (and `NO_COLOR`).
 */
function prettyLogStream(destination?: NodeJS.WritableStream): NodeJS.WritableStream {
  return pinoPretty({
    translateTime: 'SYS:HH:MM:ss.l',
    ignore: 'pid,hostname,component',
    messageFormat: '{if component}({component}): {end}{msg}',
    singleLine: true,
    sync: true,
    ...(destination ? { destination, colorize: false } : {}),
  });
}
