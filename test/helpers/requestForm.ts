import type { IncomingMessage } from 'node:http';

/** The multipart form a fake inference server received, parsed by undici's FormData reader. */
export async function formOf(request: IncomingMessage): Promise<FormData> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return new Request('http://server', { method: 'POST', headers: { 'content-type': String(request.headers['content-type']) }, body: Buffer.concat(chunks) }).formData();
}
