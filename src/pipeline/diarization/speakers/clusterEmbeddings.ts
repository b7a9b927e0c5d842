export interface ClusterEmbeddingsOptions {
  /** Clusters merge while the Euclidean distance between their centroids (of unit-length embeddings) is below this. */
  threshold: number;
  /** When set, the dendrogram is cut where it gives this many large clusters (or as close as it gets), whatever the threshold. */
  speakerCount?: number;
  /** Hints: when the threshold's cut gives fewer (more) large clusters than this, it is cut where it gives this many instead. */
  minSpeakers?: number;
  maxSpeakers?: number;
  /**
   * Clusters smaller than this (in embeddings, or in weight when `weights` are given) are folded
   * into the nearest large one. Defaults to `12` (pyannote), lowered to 10 % of the embeddings
   * for short calls; taken as given with `weights`.
   */
  minClusterSize?: number;
  /** shape: (embeddings); what each embedding counts for in centroids and cluster sizes (seconds of speech, say). Defaults to 1 each. */
  weights?: readonly number[];
  /** Most items one agglomeration holds (its distance matrix is items² × 4 bytes). Defaults to `2000` (16 MB). */
  maxItems?: number;
  /**
   * Pairs of embeddings known to be of different speakers: two clusters that would join such a
   * pair never merge. Heeded when there are at most `maxItems` embeddings
   * (the blocks of a longer input are agglomerated without it).
   */
  cannotLink?: (first: number, second: number) => boolean;
  /**
   * Two clusters holding a cannot-link pair merge all the same when the smaller holds less than
   * `smallerThan` (in weight) and their centroids are nearer than `below` (Euclidean, as
   * `threshold`): a fragment whose voice is that alike outweighs the constraint's evidence.
   * Defaults to never.
   */
  overruleCannotLink?: { below: number; smallerThan: number };
}

export interface EmbeddingClusters {
  /** shape: (embeddings); cluster of each embedding, 0 … clusters-1 by first appearance. */
  labels: number[];
  /** shape: (clusters) × (dimension); mean of each cluster's unit-length embeddings. */
  centroids: Float64Array[];
}

/**
 * Agglomerative clustering with centroid linkage over unit-length embeddings, as pyannote's
 * `AgglomerativeClustering` (metric cosine, method centroid): merge the two clusters with the
 * nearest centroids until that distance reaches `threshold` (or until `speakerCount` large
 * clusters remain), then fold clusters smaller than `minClusterSize` into the large cluster
 * with the most similar centroid.
 *
 * Memory is bounded: with more than `maxItems` embeddings, consecutive blocks of `maxItems` are
 * first agglomerated on their own up to half the threshold (near-duplicates: the same voice in
 * neighbouring windows) and at least down to half their size, nearest pairs first; their
 * clusters enter the final agglomeration as weighted centroids.
 * @param embeddings shape: (embeddings) × (dimension)
 */
export function clusterEmbeddings(embeddings: readonly Float32Array[], options: ClusterEmbeddingsOptions): EmbeddingClusters {
  const count = embeddings.length;
  if (count === 0) return { labels: [], centroids: [] };
  const maxItems = Math.max(2, options.maxItems ?? 2000);
  const minClusterSize = options.weights ? (options.minClusterSize ?? 0) : Math.min(options.minClusterSize ?? 12, Math.max(1, Math.round(0.1 * count)));

  // Items of the final agglomeration: weighted centroids, and which item each embedding belongs to.
  let items: WeightedVector[] = embeddings.map((embedding, index) => ({ vector: unitLength(embedding), weight: options.weights?.[index] ?? 1 }));
  let itemOf = embeddings.map((_, index) => index);
  while (items.length > maxItems) {
    const reduced: WeightedVector[] = [];
    const reducedOf = new Array<number>(items.length);
    for (let start = 0; start < items.length; start += maxItems) {
      const block = items.slice(start, start + maxItems);
      const merges = agglomerate(block);
      // At least halve each block (nearest pairs first), so the loop ends.
      const mergeCount = Math.max(mergesBelow(merges, options.threshold / 2), Math.floor(block.length / 2));
      const labels = labelsAfter(merges, block.length, mergeCount);
      labels.forEach((label, index) => { reducedOf[start + index] = reduced.length + label; });
      reduced.push(...groupCentroids(block, labels));
    }
    itemOf = itemOf.map((item) => reducedOf[item]!);
    items = reduced;
  }

  const merges = agglomerate(items, items.length === count ? options.cannotLink : undefined, options.overruleCannotLink);
  let itemLabels = options.speakerCount !== undefined
    ? cutAtLargeClusterCount(merges, items, options.speakerCount, minClusterSize, options.threshold)
    : cutWithinSpeakerRange(merges, items, options, minClusterSize);
  itemLabels = foldSmallClusters(items, itemLabels, minClusterSize);
  const labels = renumberByFirstAppearance(itemOf.map((item) => itemLabels[item]!));
  return { labels, centroids: groupCentroids(itemOf.map((item) => items[item]!), labels).map((group) => group.vector) };
}

/** An embedding (or a group's mean of unit-length ones) and what it counts for, in items or seconds. */
export interface WeightedVector {
  vector: Float64Array;
  weight: number;
}

/** One merge of the dendrogram: cluster `absorbed` joins cluster `into` (both named by their first item). */
interface Merge {
  into: number;
  absorbed: number;
  distance: number;
}

/**
 * The full centroid-linkage dendrogram, O(items²) memory. Each row keeps its nearest
 * neighbour, so a merge costs O(items × dimension) plus a rescan of the rows that pointed at
 * the merged clusters. Clusters holding a cannot-link pair never merge (unless `overrule`
 * allows it): the dendrogram then ends with fewer merges than items − 1.
 */
function agglomerate(
  items: readonly WeightedVector[],
  cannotLink?: (first: number, second: number) => boolean,
  overrule: { below: number; smallerThan: number } = { below: 0, smallerThan: 0 },
): Merge[] {
  const count = items.length;
  // shape: (count, count); 1 where the two clusters hold a cannot-link pair
  const conflicts = cannotLink ? new Uint8Array(count * count) : undefined;
  if (conflicts && cannotLink) {
    for (let row = 0; row < count; row++) for (let column = row + 1; column < count; column++) {
      if (cannotLink(row, column)) conflicts[row * count + column] = conflicts[column * count + row] = 1;
    }
  }
  const centroids = items.map((item) => Float64Array.from(item.vector));
  const weights = items.map((item) => item.weight);
  const overruled = (row: number, column: number, distance: number) => distance < overrule.below && Math.min(weights[row]!, weights[column]!) < overrule.smallerThan;
  const apart = (row: number, column: number, distance: number) => (conflicts?.[row * count + column] && !overruled(row, column, distance) ? Number.POSITIVE_INFINITY : distance);
  const active = new Uint8Array(count).fill(1);
  // shape: (count, count)
  const distances = new Float32Array(count * count);
  for (let row = 0; row < count; row++) {
    for (let column = row + 1; column < count; column++) {
      const distance = apart(row, column, euclidean(centroids[row]!, centroids[column]!));
      distances[row * count + column] = distance;
      distances[column * count + row] = distance;
    }
  }
  const nearest = new Int32Array(count).fill(-1);
  const nearestDistance = new Float64Array(count).fill(Infinity);
  const rescan = (row: number) => {
    nearest[row] = -1;
    nearestDistance[row] = Infinity;
    for (let column = 0; column < count; column++) {
      if (column === row || !active[column]) continue;
      const distance = distances[row * count + column]!;
      if (distance < nearestDistance[row]!) {
        nearestDistance[row] = distance;
        nearest[row] = column;
      }
    }
  };
  for (let row = 0; row < count; row++) rescan(row);

  const merges: Merge[] = [];
  for (let step = 1; step < count; step++) {
    let into = -1;
    for (let row = 0; row < count; row++) if (active[row] && (into < 0 || nearestDistance[row]! < nearestDistance[into]!)) into = row;
    const distance = nearestDistance[into]!;
    // Only clusters that must stay apart are left.
    if (distance === Number.POSITIVE_INFINITY) break;
    let absorbed = nearest[into]!;
    if (absorbed < into) [into, absorbed] = [absorbed, into];
    merges.push({ into, absorbed, distance });

    const total = weights[into]! + weights[absorbed]!;
    const target = centroids[into]!;
    const source = centroids[absorbed]!;
    for (let axis = 0; axis < target.length; axis++) target[axis] = (target[axis]! * weights[into]! + source[axis]! * weights[absorbed]!) / total;
    weights[into] = total;
    active[absorbed] = 0;
    if (conflicts) {
      for (let other = 0; other < count; other++) {
        if (!conflicts[absorbed * count + other]) continue;
        conflicts[into * count + other] = conflicts[other * count + into] = 1;
      }
    }
    for (let other = 0; other < count; other++) {
      if (!active[other] || other === into) continue;
      const distance = apart(into, other, euclidean(target, centroids[other]!));
      distances[into * count + other] = distance;
      distances[other * count + into] = distance;
    }
    rescan(into);
    for (let other = 0; other < count; other++) {
      if (!active[other] || other === into) continue;
      if (nearest[other] === into || nearest[other] === absorbed) rescan(other);
      else if (distances[other * count + into]! < nearestDistance[other]!) {
        nearestDistance[other] = distances[other * count + into]!;
        nearest[other] = into;
      }
    }
  }
  return merges;
}

/** How many merges are made before the merge distance first reaches `threshold`. */
function mergesBelow(merges: readonly Merge[], threshold: number): number {
  const stop = merges.findIndex((merge) => merge.distance >= threshold);
  return stop < 0 ? merges.length : stop;
}

/**
 * pyannote's search for a known number of clusters: of the cuts of the dendrogram, the one
 * nearest the threshold's cut that leaves exactly `target` clusters of at least
 * `minClusterSize` items (or the nearest such count when none does).
 */
function cutAtLargeClusterCount(merges: readonly Merge[], items: readonly WeightedVector[], target: number, minClusterSize: number, threshold: number): number[] {
  const byThreshold = mergesBelow(merges, threshold);
  const largeAfter = largeClustersAfterEachMerge(merges, items, minClusterSize);
  let best = byThreshold;
  largeAfter.forEach((clusters, cut) => {
    const gap = Math.abs(clusters - target);
    const bestGap = Math.abs(largeAfter[best]! - target);
    if (gap < bestGap || (gap === bestGap && Math.abs(cut - byThreshold) < Math.abs(best - byThreshold))) best = cut;
  });
  return labelsAfter(merges, items.length, best);
}

/** The threshold's cut, unless its large clusters fall outside [minSpeakers, maxSpeakers]: then the cut nearest the range's bound. */
function cutWithinSpeakerRange(merges: readonly Merge[], items: readonly WeightedVector[], options: ClusterEmbeddingsOptions, minClusterSize: number): number[] {
  const byThreshold = mergesBelow(merges, options.threshold);
  if (options.minSpeakers === undefined && options.maxSpeakers === undefined) return labelsAfter(merges, items.length, byThreshold);
  const found = largeClustersAfterEachMerge(merges, items, minClusterSize)[byThreshold]!;
  const target = Math.min(Math.max(found, options.minSpeakers ?? 0), options.maxSpeakers ?? Number.POSITIVE_INFINITY);
  return target === found ? labelsAfter(merges, items.length, byThreshold) : cutAtLargeClusterCount(merges, items, target, minClusterSize, options.threshold);
}

/** Large clusters after each number of merges (index 0: none yet), replayed with union sizes. */
function largeClustersAfterEachMerge(merges: readonly Merge[], items: readonly WeightedVector[], minClusterSize: number): number[] {
  const sizes = items.map((item) => item.weight);
  let large = sizes.filter((size) => size >= minClusterSize).length;
  const largeAfter = [large];
  for (const { into, absorbed } of merges) {
    const before = Number(sizes[into]! >= minClusterSize) + Number(sizes[absorbed]! >= minClusterSize);
    sizes[into]! += sizes[absorbed]!;
    sizes[absorbed] = 0;
    large += Number(sizes[into]! >= minClusterSize) - before;
    largeAfter.push(large);
  }
  return largeAfter;
}

function labelsAfter(merges: readonly Merge[], count: number, mergeCount: number): number[] {
  const parent = Array.from({ length: count }, (_, index) => index);
  const find = (item: number): number => {
    while (parent[item] !== item) item = parent[item] = parent[parent[item]!]!;
    return item;
  };
  for (const { into, absorbed } of merges.slice(0, mergeCount)) parent[find(absorbed)] = find(into);
  return renumberByFirstAppearance(parent.map((_, item) => find(item)));
}

/**
 * Clusters of less than `minClusterSize` weight are folded into the large cluster whose centroid
 * is most similar (all into one when none is large), renumbered by first appearance.
 * @param clusterLabels shape: (items), cluster of each item (any numbering)
 */
export function foldSmallClusters(items: readonly WeightedVector[], clusterLabels: readonly number[], minClusterSize: number): number[] {
  // Numbered 0 … clusters-1, so the groups have no holes.
  const labels = renumberByFirstAppearance(clusterLabels);
  const groups = groupCentroids(items, labels);
  const large = groups.map((group, label) => (group.weight >= minClusterSize ? label : -1)).filter((label) => label >= 0);
  if (large.length === 0) return labels.map(() => 0);
  const target = groups.map((group, label) => {
    if (group.weight >= minClusterSize) return label;
    let best = large[0]!;
    for (const candidate of large) if (cosine(group.vector, groups[candidate]!.vector) > cosine(group.vector, groups[best]!.vector)) best = candidate;
    return best;
  });
  return renumberByFirstAppearance(labels.map((label) => target[label]!));
}

function groupCentroids(items: readonly WeightedVector[], labels: readonly number[]): WeightedVector[] {
  const groups: WeightedVector[] = [];
  labels.forEach((label, index) => {
    const item = items[index]!;
    const group = (groups[label] ??= { vector: new Float64Array(item.vector.length), weight: 0 });
    for (let axis = 0; axis < item.vector.length; axis++) group.vector[axis]! += item.vector[axis]! * item.weight;
    group.weight += item.weight;
  });
  for (const group of groups) for (let axis = 0; axis < group.vector.length; axis++) group.vector[axis]! /= group.weight;
  return groups;
}

function renumberByFirstAppearance(labels: readonly number[]): number[] {
  const renumbered = new Map<number, number>();
  return labels.map((label) => {
    if (!renumbered.has(label)) renumbered.set(label, renumbered.size);
    return renumbered.get(label)!;
  });
}

export function unitLength(vector: ArrayLike<number>): Float64Array {
  let norm = 0;
  for (let axis = 0; axis < vector.length; axis++) norm += vector[axis]! * vector[axis]!;
  norm = Math.sqrt(norm) || 1;
  return Float64Array.from(vector, (value) => value / norm);
}

export function cosine(a: ArrayLike<number>, b: ArrayLike<number>): number {
  let dot = 0;
  let normA = 0;
  let normB = 0;
  for (let axis = 0; axis < a.length; axis++) {
    dot += a[axis]! * b[axis]!;
    normA += a[axis]! * a[axis]!;
    normB += b[axis]! * b[axis]!;
  }
  return normA > 0 && normB > 0 ? dot / Math.sqrt(normA * normB) : 0;
}

function euclidean(a: Float64Array, b: Float64Array): number {
  let sum = 0;
  for (let axis = 0; axis < a.length; axis++) {
    const difference = a[axis]! - b[axis]!;
    sum += difference * difference;
  }
  return Math.sqrt(sum);
}
