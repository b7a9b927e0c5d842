import { runNode } from './node/runNode.js';
import { startRefusal } from './node/startRefusal.js';

/** `npm start`: this process becomes a `serve` node (the same as `callscope serve`). */
runNode('serve').catch((error: unknown) => {
  const refusal = startRefusal(error);
  console.error(refusal ?? error);
  // 78 (EX_CONFIG): nothing to retry until the setup changes.
  process.exit(refusal === undefined ? 1 : 78);
});
