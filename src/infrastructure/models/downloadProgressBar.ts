import { downloadTotals, type ModelDownloads, type ModelDownloadSnapshot } from './ModelDownloads.js';

/** Redraws at most this often, ms: a 150 MB download reports thousands of chunks. */
const redrawIntervalMs = 100;
/** Characters of the bar itself. */
const barWidth = 30;

/**
 * One line for a terminal: `Downloading models [#########.....................]  31%  55.2 of 177.9 MiB  whisper-base.en`.
 * Without a known total it shows the bytes so far only.
 */
export function progressLine(snapshot: ModelDownloadSnapshot): string {
  const { received, total } = downloadTotals(snapshot);
  const current = snapshot.items.find((item) => item.state === 'downloading')?.entry ?? '';
  if (total === null || total === 0) return `Downloading models  ${formatMiB(received)} MiB  ${current}`.trimEnd();
  const fraction = Math.min(1, received / total);
  const filled = Math.round(fraction * barWidth);
  const bar = `[${'#'.repeat(filled)}${'.'.repeat(barWidth - filled)}]`;
  return `Downloading models ${bar} ${String(Math.floor(fraction * 100)).padStart(3)}%  ${formatMiB(received)} of ${formatMiB(total)} MiB  ${current}`.trimEnd();
}

/**
 * Draws the running download's progress on one terminal line (rewritten in place with `\r`),
 * until the returned function is called; that ends the line.
 */
export function drawDownloadProgress(downloads: ModelDownloads, terminal: NodeJS.WritableStream): () => void {
  let lastDrawn = 0;
  let drawn = false;
  const draw = (snapshot: ModelDownloadSnapshot) => {
    // Nothing to show before the first model is reached: an offline box never sees a bar at 0 %.
    if (snapshot.state === 'offline' || snapshot.items.every((item) => item.state === 'waiting')) return;
    const now = Date.now();
    if (snapshot.state === 'running' && now - lastDrawn < redrawIntervalMs) return;
    lastDrawn = now;
    drawn = true;
    // \x1b[K clears what a longer previous line left at the end.
    terminal.write(`\r${progressLine(snapshot)}\x1b[K`);
  };
  const stop = downloads.listen(draw);
  return () => {
    stop();
    if (drawn) terminal.write('\n');
  };
}

function formatMiB(bytes: number): string {
  return (bytes / 1024 ** 2).toFixed(1);
}
