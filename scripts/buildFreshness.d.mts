/** Types of buildFreshness.mjs (plain JavaScript: `npm start` runs it before anything is built). */
export function newestSourceTime(root: string): number;
export function staleBuildReason(root: string): string | undefined;
