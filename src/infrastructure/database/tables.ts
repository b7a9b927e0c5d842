/*
 * The tables as the repositories name them. Repositories are written once, in SQL that both
 * engines run, and take table and column names, and their row types, from here: the SQLite
 * schema module. The PostgreSQL schema (`postgres/schema.ts`) has the same tables and columns
 * under the same names (test/infrastructure/database/schemaParity.test.ts holds them together),
 * so what is named here is right for either engine.
 */
export * from './sqlite/schema.js';
