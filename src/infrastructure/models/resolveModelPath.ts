import { isAbsolute, resolve } from 'node:path';
import { packageRoot } from '../packageRoot.js';

/** Resolves a configured model path: absolute as given, relative to the install folder otherwise. */
export function resolveModelPath(path: string): string {
  return isAbsolute(path) ? path : resolve(packageRoot, path);
}
