/** One block of a `text/event-stream`, as a client parses it. */
export interface ServerSentMessage {
  event?: string;
  id?: string;
  data?: string;
  retry?: number;
  /** The text of a comment line (`: heartbeat`). */
  comment?: string;
}

/** A parsed event: its type, id and JSON data. */
export interface ReceivedEvent<T = unknown> {
  event: string;
  id: string | undefined;
  data: T;
}

/**
 * Reads a Server-Sent Events response body block by block (blocks end with a blank line), as a
 * browser's EventSource would, without any timing of its own: each read waits for the next block.
 */
export class EventStreamReader {
  private buffer = '';
  private readonly pending: ServerSentMessage[] = [];
  private readonly decoder = new TextDecoder();
  private ended = false;

  constructor(private readonly reader: ReadableStreamDefaultReader<Uint8Array>) {}

  static of(response: Response): EventStreamReader {
    if (!response.body) throw new Error('the response has no body');
    return new EventStreamReader(response.body.getReader());
  }

  /** The next block (event, retry hint or comment), or undefined once the server ended the stream. */
  async next(): Promise<ServerSentMessage | undefined> {
    while (this.pending.length === 0) {
      if (this.ended) return undefined;
      const { value, done } = await this.reader.read();
      if (done) {
        this.ended = true;
        continue;
      }
      this.buffer += this.decoder.decode(value, { stream: true });
      for (let end = this.buffer.indexOf('\n\n'); end >= 0; end = this.buffer.indexOf('\n\n')) {
        this.pending.push(parseBlock(this.buffer.slice(0, end)));
        this.buffer = this.buffer.slice(end + 2);
      }
    }
    return this.pending.shift();
  }

  /** The next event, skipping comments and retry hints; throws when the stream ends first. */
  async nextEvent<T = unknown>(): Promise<ReceivedEvent<T>> {
    for (let message = await this.next(); message; message = await this.next()) {
      if (message.event !== undefined && message.data !== undefined) return { event: message.event, id: message.id, data: JSON.parse(message.data) as T };
    }
    throw new Error('the event stream ended');
  }

  /** Reads until the server ends the stream; every block it still sent. */
  async rest(): Promise<ServerSentMessage[]> {
    const messages: ServerSentMessage[] = [];
    for (let message = await this.next(); message; message = await this.next()) messages.push(message);
    return messages;
  }
}

function parseBlock(block: string): ServerSentMessage {
  const message: ServerSentMessage = {};
  for (const line of block.split('\n')) {
    if (line.startsWith(':')) {
      message.comment = line.slice(1).trim();
      continue;
    }
    const colon = line.indexOf(':');
    const field = colon < 0 ? line : line.slice(0, colon);
    const value = colon < 0 ? '' : line.slice(colon + 1).replace(/^ /, '');
    if (field === 'event') message.event = value;
    else if (field === 'id') message.id = value;
    else if (field === 'data') message.data = message.data === undefined ? value : `${message.data}\n${value}`;
    else if (field === 'retry') message.retry = Number(value);
  }
  return message;
}
