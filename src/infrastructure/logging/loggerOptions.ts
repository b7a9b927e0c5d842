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

/**
 * pino settings for the service. Request logs carry method, path, status and timing only:
 * no headers (tokens, API keys, cookies), no query strings, no bodies. Redaction is a second
 * line of defence for anything logged by mistake under these names.
 *
 * `LOG_FORMAT` only changes how a finished entry is written: redaction and serializers run
 * before the entry reaches the pretty printer, so both formats carry the same fields, masked
 * the same way.
 */
export function loggerOptions(config: Pick<Config, 'LOG_LEVEL' | 'LOG_FORMAT'>, output: LogOutputOptions = {}): FastifyServerOptions['logger'] {
  const options = {
    level: config.LOG_LEVEL,
    redact: {
      paths: [
        'req.headers.authorization', 'req.headers["x-api-key"]', 'req.headers.cookie', 'req.headers["x-local-user-id"]',
        'headers.authorization', 'headers["x-api-key"]',
        // At the top of an entry and one level down (pino's `*` matches exactly one level).
        'token', 'apiKey', 'password', 'text', 'transcript', '*.token', '*.apiKey', '*.password', '*.text', '*.transcript',
      ],
      censor: '[redacted]',
    },
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
