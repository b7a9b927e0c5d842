import { expect, test } from 'vitest';
import { onAFreePort } from './serverProcess.js';

// The test harness's start of a node on a free port (serverProcess.ts): another port when the
// node found its port taken, never for any other failure.

test('starts again on another port when the node exits 78 for a port already in use, up to three ports', async () => {
  const ports: number[] = [];
  const started = await onAFreePort(async (port) => {
    ports.push(port);
    if (ports.length < 3) throw new Error(`src/server.ts exited with 78: Port ${port} on 127.0.0.1 (PORT) is already in use by another process`);
    return `listening on ${port}`;
  });
  expect(ports).toHaveLength(3);
  expect(started).toBe(`listening on ${ports[2]}`);

  let attempts = 0;
  await expect(onAFreePort(async (port) => { attempts += 1; throw new Error(`src/server.ts exited with 78: Port ${port} is already in use`); })).rejects.toThrow(/already in use/);
  expect(attempts).toBe(3);
});

test('any other failure is thrown at once', async () => {
  let attempts = 0;
  await expect(onAFreePort(async () => { attempts += 1; throw new Error('src/server.ts exited with 78: JWT_SECRET is missing'); })).rejects.toThrow(/JWT_SECRET/);
  expect(attempts).toBe(1);
});
