/**
 * The one-to-one pairing of rows with columns that maximises the summed score (Hungarian
 * algorithm with potentials, O(rows² × columns)); rectangular matrices pair min(rows, columns)
 * of them.
 * @param scores shape: (rows) × (columns)
 * @returns shape: (rows); the column paired with each row, or -1 for a row left unpaired
 */
export function maximizeAssignment(scores: readonly (readonly number[])[]): number[] {
  const rows = scores.length;
  const columns = scores[0]?.length ?? 0;
  if (rows === 0) return [];
  if (columns === 0) return new Array<number>(rows).fill(-1);
  if (rows > columns) {
    // Pair the columns with rows instead, then invert.
    const transposed = Array.from({ length: columns }, (_, column) => scores.map((row) => row[column]!));
    const rowOfColumn = maximizeAssignment(transposed);
    const columnOfRow = new Array<number>(rows).fill(-1);
    rowOfColumn.forEach((row, column) => { if (row >= 0) columnOfRow[row] = column; });
    return columnOfRow;
  }

  // Minimise the negated scores; arrays are 1-based with index 0 as the algorithm's sentinel.
  const cost = (row: number, column: number) => -scores[row - 1]![column - 1]!;
  const rowPotential = new Float64Array(rows + 1);
  const columnPotential = new Float64Array(columns + 1);
  const rowOfColumn = new Int32Array(columns + 1);
  const way = new Int32Array(columns + 1);
  for (let row = 1; row <= rows; row++) {
    rowOfColumn[0] = row;
    let column0 = 0;
    const minSlack = new Float64Array(columns + 1).fill(Infinity);
    const used = new Uint8Array(columns + 1);
    do {
      used[column0] = 1;
      const row0 = rowOfColumn[column0]!;
      let delta = Infinity;
      let column1 = 0;
      for (let column = 1; column <= columns; column++) {
        if (used[column]) continue;
        const slack = cost(row0, column) - rowPotential[row0]! - columnPotential[column]!;
        if (slack < minSlack[column]!) {
          minSlack[column] = slack;
          way[column] = column0;
        }
        if (minSlack[column]! < delta) {
          delta = minSlack[column]!;
          column1 = column;
        }
      }
      for (let column = 0; column <= columns; column++) {
        if (used[column]) {
          rowPotential[rowOfColumn[column]!]! += delta;
          columnPotential[column]! -= delta;
        } else {
          minSlack[column]! -= delta;
        }
      }
      column0 = column1;
    } while (rowOfColumn[column0] !== 0);
    do {
      const column1 = way[column0]!;
      rowOfColumn[column0] = rowOfColumn[column1]!;
      column0 = column1;
    } while (column0 !== 0);
  }

  const columnOfRow = new Array<number>(rows).fill(-1);
  for (let column = 1; column <= columns; column++) {
    const row = rowOfColumn[column]!;
    if (row > 0) columnOfRow[row - 1] = column - 1;
  }
  return columnOfRow;
}
