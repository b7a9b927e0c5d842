import { getTableColumns, getTableName, sql, type SQL, type Table } from 'drizzle-orm';

/*
 * SQL pieces built from a table's definition, so that repositories name a row's fields once
 * (as the schema does) and the column names follow. Every piece is plain SQL both engines run.
 */

/**
 * `"user_id" AS "userId", ...` for every column: rows come back shaped as `table.$inferSelect`.
 * Built once per table as one raw chunk (both engines quote names with double quotes): compiling
 * a query then costs the same as with a hand-written column list, which the hot path feels.
 */
export function columnsOf(table: Table): SQL {
  let list = columnLists.get(table);
  if (!list) {
    list = Object.entries(getTableColumns(table)).map(([field, column]) => `${quoted(column.name)} AS ${quoted(field)}`).join(', ');
    columnLists.set(table, list);
  }
  return sql.raw(list);
}

const columnLists = new WeakMap<Table, string>();

/** An identifier in double quotes (the SQL standard's, which SQLite and PostgreSQL share). */
function quoted(name: string): string {
  return `"${name.replaceAll('"', '""')}"`;
}

/** The table's quoted name. */
function tableOf(table: Table): SQL {
  return sql`${sql.identifier(getTableName(table))}`;
}

/**
 * `INSERT INTO "table" ("a", "b") VALUES (..), (..)` for records of the table. A field that
 * some records leave out takes the column's default in those (SQLite has no `DEFAULT` inside
 * `VALUES`), or null.
 */
export function insertInto<T extends Table>(table: T, rows: readonly T['$inferInsert'][]): SQL {
  if (rows.length === 0) throw new Error('insertInto needs at least one row');
  const columns = getTableColumns(table);
  const fields = Object.keys(columns).filter((field) => rows.some((row) => (row as Record<string, unknown>)[field] !== undefined));
  const tuples = rows.map((row) => sql`(${sql.join(fields.map((field) => {
    const value = (row as Record<string, unknown>)[field];
    const column = columns[field]!;
    return sql.param(value !== undefined ? value : column.hasDefault && column.default !== undefined && !isSql(column.default) ? column.default : null, column);
  }), sql`, `)})`);
  return sql`INSERT INTO ${tableOf(table)} (${sql.join(fields.map((field) => sql.identifier(columns[field]!.name)), sql`, `)}) VALUES ${sql.join(tuples, sql`, `)}`;
}

/** `"status" = $1, "updated_at" = $2` for the fields given (undefined ones are left alone). */
export function assignmentsOf<T extends Table>(table: T, fields: Partial<T['$inferInsert']>): SQL {
  const columns = getTableColumns(table);
  const assigned = Object.entries(fields).filter(([, value]) => value !== undefined);
  if (assigned.length === 0) throw new Error('assignmentsOf needs at least one field');
  return sql.join(assigned.map(([field, value]) => {
    const column = columns[field];
    if (!column) throw new Error(`${getTableName(table)} has no field ${field}`);
    return sql`${sql.identifier(column.name)} = ${sql.param(value, column)}`;
  }), sql`, `);
}

function isSql(value: unknown): boolean {
  return typeof value === 'object' && value !== null && 'queryChunks' in value;
}
