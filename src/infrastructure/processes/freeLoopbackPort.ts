import { createServer } from 'node:net';

/**
 * A TCP port free on 127.0.0.1 now, for a child process (or a test's server) to listen on: the
 * kernel picks one, and it is released at once. Another process may take it in between; callers
 * that spawn a listener check that it answers.
 */
export async function freeLoopbackPort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const address = probe.address();
  await new Promise((resolve) => probe.close(resolve));
  if (!address || typeof address === 'string') throw new Error('no free loopback port');
  return address.port;
}
