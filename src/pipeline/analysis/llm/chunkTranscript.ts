/**
 * Consecutive runs of `items` (transcript lines) whose summed `cost` (tokens) stays within
 * `budget`, in order, no item split and none repeated. Chunks are balanced rather than filled
 * greedily: with a total of T the aim is ceil(T / budget) chunks of about equal cost, so the last
 * chunk is not a scrap of a few lines without context. An item costing more than the budget on
 * its own gets a chunk to itself (the caller shortens such items first).
 */
export function chunkTranscript<Item>(items: readonly Item[], cost: (item: Item) => number, budget: number): Item[][] {
  if (items.length === 0) return [];
  const costs = items.map(cost);
  const total = costs.reduce((sum, itemCost) => sum + itemCost, 0);
  const target = total / Math.ceil(total / budget);
  const chunks: Item[][] = [];
  let current: Item[] = [];
  let currentCost = 0;
  let consumed = 0;
  items.forEach((item, index) => {
    const itemCost = costs[index]!;
    // Chunk k ends near k × target of the running total: the item goes to the next chunk when
    // most of it lies past that boundary, or when it would overflow the budget.
    const overflows = currentCost + itemCost > budget;
    const pastBoundary = consumed + itemCost / 2 > target * (chunks.length + 1);
    if (current.length > 0 && (overflows || pastBoundary)) {
      chunks.push(current);
      current = [];
      currentCost = 0;
    }
    current.push(item);
    currentCost += itemCost;
    consumed += itemCost;
  });
  chunks.push(current);
  return chunks;
}
