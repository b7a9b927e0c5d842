import { describe, expect, it } from 'vitest';
import { clusterEmbeddings } from '../../../../src/pipeline/diarization/speakers/clusterEmbeddings.js';

/** `count` noisy copies of each centre, interleaved (centre 0, 1, 2, 0, 1, 2, …). */
function samples(centres: number[][], count: number, noise: number, seed = 5): Float32Array[] {
  let state = seed;
  const random = () => (state = (state * 16807) % 2147483647) / 2147483647 - 0.5;
  return Array.from({ length: count * centres.length }, (_, index) => Float32Array.from(centres[index % centres.length]!, (value) => value + random() * noise));
}

const threeVoices = [[1, 0, 0, 0], [0, 1, 0, 0], [0, 0, 1, 0]];

describe('clusterEmbeddings (centroid linkage over unit-length embeddings)', () => {
  it('finds well-separated voices with the threshold, numbering clusters by first appearance', () => {
    const { labels, centroids } = clusterEmbeddings(samples(threeVoices, 10, 0.3), { threshold: 0.7 });
    expect(labels.slice(0, 6)).toEqual([0, 1, 2, 0, 1, 2]);
    expect(new Set(labels).size).toBe(3);
    expect(centroids).toHaveLength(3);
  });

  it('merges everything under a threshold above the voices\' distance (√2 between orthogonal unit vectors)', () => {
    expect(new Set(clusterEmbeddings(samples(threeVoices, 10, 0.3), { threshold: 1.6 }).labels).size).toBe(1);
  });

  it('cuts the dendrogram at the given number of speakers, whatever the threshold', () => {
    const embeddings = samples(threeVoices, 10, 0.3);
    expect(new Set(clusterEmbeddings(embeddings, { threshold: 0.7, speakerCount: 2 }).labels).size).toBe(2);
    expect(new Set(clusterEmbeddings(embeddings, { threshold: 1.6, speakerCount: 3 }).labels).size).toBe(3);
  });

  it('obeys minSpeakers and maxSpeakers only where the threshold falls outside them', () => {
    const embeddings = samples(threeVoices, 10, 0.3);
    const speakers = (options: { threshold: number; minSpeakers?: number; maxSpeakers?: number }) => new Set(clusterEmbeddings(embeddings, options).labels).size;
    expect(speakers({ threshold: 0.7, maxSpeakers: 2 })).toBe(2);
    expect(speakers({ threshold: 1.6, minSpeakers: 2 })).toBe(2);
    expect(speakers({ threshold: 0.7, minSpeakers: 2, maxSpeakers: 4 })).toBe(3);
    expect(speakers({ threshold: 1.6, maxSpeakers: 4 })).toBe(1);
  });

  it('folds clusters smaller than the minimum size into the most similar large one', () => {
    // 20 of voice 0, 20 of voice 1, one stray near voice 1.
    const embeddings = [...samples(threeVoices.slice(0, 2), 20, 0.2), Float32Array.from([0.3, 1, 0.6, 0])];
    const { labels } = clusterEmbeddings(embeddings, { threshold: 0.5, minClusterSize: 5 });
    expect(new Set(labels).size).toBe(2);
    expect(labels.at(-1)).toBe(labels[1]);
  });

  it('bounds memory for long calls: pre-clustering blocks gives the same voices', () => {
    const embeddings = samples(threeVoices, 100, 0.3);
    const whole = clusterEmbeddings(embeddings, { threshold: 0.7 }).labels;
    const blocked = clusterEmbeddings(embeddings, { threshold: 0.7, maxItems: 64 }).labels;
    expect(new Set(blocked).size).toBe(3);
    expect(blocked).toEqual(whole);
  });

  it('never merges clusters that would join a cannot-link pair, whatever the threshold', () => {
    // Two near-identical voices (0 and 1 apart by noise only) that a cannot-link pair keeps apart.
    const embeddings = samples([[1, 0.1, 0, 0], [1, -0.1, 0, 0]], 10, 0.05);
    expect(new Set(clusterEmbeddings(embeddings, { threshold: 0.7 }).labels).size).toBe(1);
    const { labels } = clusterEmbeddings(embeddings, { threshold: 0.7, cannotLink: (first, second) => first === 0 && second === 1 });
    expect(labels[0]).not.toBe(labels[1]);
    // Everything else is free to join either: the two constrained items end in different clusters.
    expect(new Set(labels).size).toBe(2);
  });

  it('merges a cannot-link pair after all when overruleCannotLink allows: a small cluster, nearer than `below`', () => {
    // Unit vectors 0.2 apart (one voice) and 0.6 apart (two voices), each pair cannot-linked.
    const one = [Float32Array.from([1, 0]), Float32Array.from([Math.cos(0.2), Math.sin(0.2)])];
    const two = [Float32Array.from([1, 0]), Float32Array.from([Math.cos(0.61), Math.sin(0.61)])];
    const cannotLink = () => true;
    const overruleCannotLink = { below: 0.55, smallerThan: 3 };
    const clusters = (items: Float32Array[], weights: number[], overrule?: typeof overruleCannotLink) =>
      new Set(clusterEmbeddings(items, { threshold: 0.7, weights, cannotLink, overruleCannotLink: overrule }).labels).size;
    expect(clusters(one, [10, 2])).toBe(2);
    expect(clusters(one, [10, 2], overruleCannotLink)).toBe(1);
    // Both at least `smallerThan`: the constraint holds however alike they are.
    expect(clusters(one, [10, 3], overruleCannotLink)).toBe(2);
    // 0.6 apart: past `below`, though within the threshold: the constraint holds.
    expect(clusters(two, [10, 2], overruleCannotLink)).toBe(2);
    expect(new Set(clusterEmbeddings(two, { threshold: 0.7 }).labels).size).toBe(1);
  });

  it('weighs embeddings: sizes (for folding) are sums of weights', () => {
    // 20 of voice 0 (0.1 s each: 2 s), one of voice 1 worth 3 s: voice 1 is large by weight, not by count.
    const embeddings = [...samples([threeVoices[0]!], 20, 0.2), Float32Array.from(threeVoices[1]!)];
    const weights = [...Array.from({ length: 20 }, () => 0.1), 3];
    expect(new Set(clusterEmbeddings(embeddings, { threshold: 0.7, weights, minClusterSize: 1.5 }).labels).size).toBe(2);
    expect(new Set(clusterEmbeddings(embeddings, { threshold: 0.7, weights: weights.map(() => 0.1), minClusterSize: 1.5 }).labels).size).toBe(1);
  });

  it('handles no embeddings and a single one', () => {
    expect(clusterEmbeddings([], { threshold: 0.7 })).toEqual({ labels: [], centroids: [] });
    expect(clusterEmbeddings([Float32Array.from([1, 2])], { threshold: 0.7 }).labels).toEqual([0]);
  });
});
