import type { FastifyReply } from 'fastify';

export interface ServerSentEventStreamOptions {
  /** Time between comment lines that show proxies and the client the stream is alive, ms. */
  heartbeatMs: number;
  /** The reconnection delay suggested to the client (`retry:`), ms. */
  retryMs: number;
  /**
   * Output not yet taken by the client above which the stream is closed, bytes: a client that
   * stopped reading must not make the server hold ever more for it (it reconnects and catches
   * up). Defaults to 1 MiB.
   */
  maxBufferedBytes?: number;
}

/** How long {@link ServerSentEventStream.close} waits for the end to reach the client before dropping the connection, ms. */
const closeGraceMs = 1000;

/** One message of the `text/event-stream` format: its type, its data (one JSON line) and its id. */
export function formatServerSentEvent(event: string, data: unknown, id?: string): string {
  // JSON.stringify writes no raw newline, so the data is one `data:` line.
  return `${id !== undefined ? `id: ${id}\n` : ''}event: ${event}\ndata: ${JSON.stringify(data)}\n\n`;
}

/**
 * A `text/event-stream` response that stays open: takes the reply over from Fastify (no
 * serialisation, no request timeout), writes the headers and the `retry:` hint, keeps the
 * connection alive with comment lines, and ends when the client leaves, when it stops reading,
 * or when {@link close} is called (server shutdown). The response asks for the connection to be
 * closed after it (`Connection: close`), so a stream ended on shutdown leaves no idle socket
 * that would hold up the server's close.
 */
export class ServerSentEventStream {
  /** Resolves once the connection is closed, whoever closed it. */
  readonly closed: Promise<void>;
  private readonly maxBufferedBytes: number;

  constructor(private readonly reply: FastifyReply, options: ServerSentEventStreamOptions) {
    this.maxBufferedBytes = options.maxBufferedBytes ?? 1024 * 1024;
    const response = reply.raw;
    reply.hijack();
    // A client that left while the stream was being prepared has already had its 'close': nothing to write to.
    if (!this.isOpen) {
      this.closed = Promise.resolve();
      return;
    }
    this.closed = new Promise((resolve) => response.once('close', resolve));
    // Headers set before the take-over (by hooks) are kept; the onSend hook that adds the request id does not run.
    for (const [name, value] of Object.entries(reply.getHeaders())) if (value !== undefined) response.setHeader(name, value);
    response.writeHead(200, {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-cache, no-transform',
      // nginx and similar proxies otherwise buffer the stream and deliver events late.
      'x-accel-buffering': 'no',
      connection: 'close',
      'x-request-id': reply.request.id,
    });
    this.write(`retry: ${options.retryMs}\n\n`);
    const heartbeat = setInterval(() => this.write(': heartbeat\n\n'), options.heartbeatMs);
    heartbeat.unref();
    void this.closed.then(() => clearInterval(heartbeat));
  }

  get isOpen(): boolean {
    const response = this.reply.raw;
    return !response.writableEnded && !response.destroyed && response.socket !== null && !response.socket.destroyed;
  }

  send(event: string, data: unknown, id?: string): void {
    this.write(formatServerSentEvent(event, data, id));
  }

  /** Ends the response (the client may reconnect); resolves once the connection is closed. */
  close(): Promise<void> {
    const response = this.reply.raw;
    if (this.isOpen) response.end();
    // A client that stopped reading keeps the end from ever being flushed: drop its connection after a moment.
    const drop = setTimeout(() => response.destroy(), closeGraceMs);
    drop.unref();
    return this.closed.finally(() => clearTimeout(drop));
  }

  private write(chunk: string): void {
    if (!this.isOpen) return;
    const response = this.reply.raw;
    if (response.writableLength > this.maxBufferedBytes) {
      response.destroy();
      return;
    }
    response.write(chunk);
  }
}
