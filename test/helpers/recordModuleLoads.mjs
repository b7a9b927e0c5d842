// Module customisation hooks (node --import with module.register) that append the URL of every
// module the process resolves to the file named by RECORD_MODULE_LOADS, one a line: for tests
// that check what a command loads. Registered by test/cli/commandLoading.test.ts.
import { appendFileSync } from 'node:fs';

export async function resolve(specifier, context, nextResolve) {
  const resolved = await nextResolve(specifier, context);
  if (process.env.RECORD_MODULE_LOADS) appendFileSync(process.env.RECORD_MODULE_LOADS, `${resolved.url}\n`);
  return resolved;
}
