import type { SpeakerRun } from './TurnBuilder.js';

/**
 * Window linking with a known number of speakers: keeps the `speakerCount` speakers with the
 * most speech and folds every other one into a kept speaker. Window linking starts a new
 * speaker when a known one comes back after a silence longer than the windows' overlap, so
 * the folded speaker is most likely the kept speaker who had been silent longest when it
 * first spoke (and who never talks over it: speakers that overlap it are never chosen while
 * another one does not).
 * @param runs sorted by start
 */
export function foldExtraSpeakers(runs: readonly SpeakerRun[], speakerCount: number): SpeakerRun[] {
  const speech = new Map<number, number>();
  for (const run of runs) speech.set(run.speaker, (speech.get(run.speaker) ?? 0) + run.endSeconds - run.startSeconds);
  if (speech.size <= speakerCount || speakerCount < 1) return [...runs];
  const kept = new Set([...speech.keys()].sort((a, b) => speech.get(b)! - speech.get(a)! || a - b).slice(0, speakerCount));

  const folded = new Map<number, number>();
  const extras = [...new Set(runs.map((run) => run.speaker))].filter((speaker) => !kept.has(speaker));
  for (const extra of extras) {
    const own = runs.filter((run) => run.speaker === extra);
    const firstStart = own[0]!.startSeconds;
    let best = -1;
    let bestKey: [number, number] = [Infinity, -Infinity];
    for (const candidate of kept) {
      // Runs of the candidate as folded so far.
      const candidateRuns = runs.filter((run) => (folded.get(run.speaker) ?? run.speaker) === candidate);
      const overlap = overlapSeconds(own, candidateRuns);
      const lastBefore = Math.max(-Infinity, ...candidateRuns.filter((run) => run.startSeconds < firstStart).map((run) => Math.min(run.endSeconds, firstStart)));
      const silentFor = firstStart - lastBefore;
      if (overlap < bestKey[0] - 1e-9 || (Math.abs(overlap - bestKey[0]) <= 1e-9 && silentFor > bestKey[1])) {
        best = candidate;
        bestKey = [overlap, silentFor];
      }
    }
    folded.set(extra, best);
  }
  return runs.map((run) => ({ ...run, speaker: folded.get(run.speaker) ?? run.speaker }));
}

/** Time two speakers talk together; each one's runs are sorted by start and may overlap only across speakers folded together. */
function overlapSeconds(a: readonly SpeakerRun[], b: readonly SpeakerRun[]): number {
  let total = 0;
  let first = 0;
  let second = 0;
  while (first < a.length && second < b.length) {
    const x = a[first]!;
    const y = b[second]!;
    total += Math.max(0, Math.min(x.endSeconds, y.endSeconds) - Math.max(x.startSeconds, y.startSeconds));
    if (x.endSeconds < y.endSeconds) first++;
    else second++;
  }
  return total;
}
