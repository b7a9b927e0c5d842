import { describe, expect, test } from 'vitest';
import { WorkerResources, type Disposable } from '../../../src/infrastructure/workers/WorkerResources.js';

/** A resource that counts how often it was freed. */
function resource(name: string, failOnDispose = false): Disposable & { name: string; disposals: number } {
  return {
    name,
    disposals: 0,
    dispose() {
      this.disposals += 1;
      if (failOnDispose) throw new Error('already gone');
    },
  };
}

describe('WorkerResources', () => {
  test('creates a resource once per key and hands the same one to every user', async () => {
    const resources = new WorkerResources();
    let creations = 0;
    const create = async () => { creations += 1; return resource('model'); };

    const [first, second] = await Promise.all([resources.get('model', create), resources.get('model', create)]);

    expect(first).toBe(second);
    expect(creations).toBe(1);
  });

  test('a failed creation is tried again on the next use', async () => {
    const resources = new WorkerResources();

    await expect(resources.get('model', async () => { throw new Error('file missing'); })).rejects.toThrow('file missing');

    expect((await resources.get('model', async () => resource('model'))).name).toBe('model');
  });

  test('disposeAll frees every resource once, counts those freed, and leaves none behind', async () => {
    const resources = new WorkerResources();
    const vad = await resources.get('vad', async () => resource('vad'));
    const llm = await resources.get('llm', async () => resource('llm', true));
    const embedder = await resources.get('embedder', async () => resource('embedder'));

    expect(await resources.disposeAll()).toBe(2);

    expect([vad.disposals, llm.disposals, embedder.disposals]).toEqual([1, 1, 1]);
    expect(await resources.disposeAll()).toBe(0);
    expect(await resources.get('vad', async () => resource('vad again'))).not.toBe(vad);
  });
});
