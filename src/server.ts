import { ConfigError } from './config/loadConfig.js';
import { runNode } from './node/runNode.js';
import { ProcessingLockHeld } from './processing/ProcessingLock.js';

/** `npm start`: this process becomes a `serve` node (the same as `callscope serve`). */
runNode('serve').catch((error: unknown) => {
  if (error instanceof ConfigError || error instanceof ProcessingLockHeld) {
    console.error(error.message);
    process.exit(78); // EX_CONFIG: nothing to retry until the setup changes
  }
  console.error(error);
  process.exit(1);
});
