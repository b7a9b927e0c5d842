import { getTableColumns, getTableName, is, Table } from 'drizzle-orm';
import { getTableConfig as pgTableConfig } from 'drizzle-orm/pg-core';
import { getTableConfig as sqliteTableConfig } from 'drizzle-orm/sqlite-core';
import { expect, test } from 'vitest';
import * as postgresSchema from '../../../src/infrastructure/database/postgres/schema.js';
import * as sqliteSchema from '../../../src/infrastructure/database/sqlite/schema.js';

/*
 * The repositories are written once and name tables and columns from the SQLite schema
 * (src/infrastructure/database/tables.ts); the same SQL runs on PostgreSQL. So the two schema
 * modules must have the same tables, the same columns under the same names, the same
 * nullability, defaults and keys, and the same indexes.
 */

function tablesOf(schema: Record<string, unknown>): Map<string, Table> {
  return new Map(Object.values(schema).filter((value): value is Table => is(value, Table)).map((table) => [getTableName(table), table]));
}

const sqliteTables = tablesOf(sqliteSchema);
const postgresTables = tablesOf(postgresSchema);

test('both schemas define the same tables, under the same export names', () => {
  expect([...postgresTables.keys()].sort()).toEqual([...sqliteTables.keys()].sort());
  const exportNames = (schema: Record<string, unknown>) => Object.entries(schema).filter(([, value]) => is(value, Table)).map(([name]) => name).sort();
  expect(exportNames(postgresSchema)).toEqual(exportNames(sqliteSchema));
});

test.each([...sqliteTables.keys()])('table %s has the same columns, nullability, defaults and keys on both engines', (name) => {
  const columnsOf = (table: Table) => Object.fromEntries(Object.entries(getTableColumns(table)).map(([field, column]) => [field, {
    name: column.name, notNull: column.notNull, hasDefault: column.hasDefault, primary: column.primary,
    // enum values and plain (non-SQL) defaults must agree; SQL defaults differ per engine by nature.
    enumValues: column.enumValues ?? null,
    default: typeof column.default === 'object' ? 'sql' : (column.default ?? null),
  }]));
  const sqliteTable = sqliteTables.get(name)!;
  const postgresTable = postgresTables.get(name)!;
  expect(columnsOf(postgresTable)).toEqual(columnsOf(sqliteTable));
  const keys = (config: { primaryKeys: { columns: { name: string }[] }[] }) => config.primaryKeys.map((key) => key.columns.map((column) => column.name));
  expect(keys(pgTableConfig(postgresTable as never))).toEqual(keys(sqliteTableConfig(sqliteTable as never)));
  const foreignKeys = (config: { foreignKeys: { reference(): { columns: { name: string }[]; foreignTable: Table; foreignColumns: { name: string }[] } }[] }) =>
    config.foreignKeys.map((key) => key.reference()).map((reference) => `${reference.columns.map((column) => column.name).join()}->${getTableName(reference.foreignTable)}(${reference.foreignColumns.map((column) => column.name).join()})`).sort();
  expect(foreignKeys(pgTableConfig(postgresTable as never))).toEqual(foreignKeys(sqliteTableConfig(sqliteTable as never)));
});

test.each([...sqliteTables.keys()])('table %s has the same indexes on both engines (a unique index may be a unique constraint on PostgreSQL)', (name) => {
  const sqliteConfig = sqliteTableConfig(sqliteTables.get(name)! as never);
  const postgresConfig = pgTableConfig(postgresTables.get(name)! as never);
  const describe = (indexName: string, unique: boolean, columns: string[]) => `${indexName}${unique ? ' unique' : ''} (${columns.join(', ')})`;
  const sqliteIndexes = sqliteConfig.indexes.map((index) => describe(index.config.name, index.config.unique, index.config.columns.map((column) => (column as { name: string }).name)));
  const postgresIndexes = [
    ...postgresConfig.indexes.map((index) => describe(index.config.name!, index.config.unique, index.config.columns.map((column) => (column as { name: string }).name))),
    ...postgresConfig.uniqueConstraints.map((constraint) => describe(constraint.name!, true, constraint.columns.map((column) => column.name))),
    ...postgresConfig.columns.filter((column) => column.isUnique).map((column) => describe(column.uniqueName!, true, [column.name])),
  ];
  expect(postgresIndexes.sort()).toEqual(sqliteIndexes.sort());
});
