import { basename, isAbsolute, relative, resolve } from 'node:path';
import { packageRoot } from '../packageRoot.js';

/** Resolves a configured model path: absolute as given, relative to the install folder otherwise. */
export function resolveModelPath(path: string): string {
  return isAbsolute(path) ? path : resolve(packageRoot, path);
}

/**
 * A model path as a call's `errorReason` or a readiness detail may show it: relative to the
 * install folder when inside it (`models/whisper.bin`), else only the file name. Never an
 * absolute path: it would tell API users how the box is laid out.
 */
export function modelDisplayName(path: string): string {
  const inside = relative(packageRoot, resolveModelPath(path));
  return inside && !inside.startsWith('..') && !isAbsolute(inside) ? inside : basename(path);
}
