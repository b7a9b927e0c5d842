import { getTableColumns, sql, type SQL } from 'drizzle-orm';
import type { PlaceholderValues, SqlDatabase } from '../../infrastructure/database/SqlDatabase.js';
import { columnsOf } from '../../infrastructure/database/sqlFragments.js';
import { accessAudit } from '../../infrastructure/database/tables.js';
import { chainRecords, type AccessAuditRecord, type UnchainedAuditRecord } from './auditChain.js';

/** What the admin page filters the trail by; every field optional. Times in ms since the epoch. */
export interface AccessAuditFilter {
  callId?: string;
  actorId?: string;
  action?: string;
  /** Records at or after this instant. */
  from?: number;
  /** Records before this instant. */
  to?: number;
  /** Records with a lower seq than this (the next page, newest first). */
  before?: number;
}

const auditColumns = columnsOf(accessAudit);
const auditFields = Object.keys(getTableColumns(accessAudit)) as (keyof AccessAuditRecord)[];

/** `INSERT INTO access_audit (...) VALUES (...), ...` for `rowCount` rows, with placeholders `<field><row>`. */
function insertRowsQuery(rowCount: number): SQL {
  const columns = getTableColumns(accessAudit);
  const rows = Array.from({ length: rowCount }, (_unused, row) => sql`(${sql.join(auditFields.map((field) => sql.placeholder(`${field}${row}`)), sql`, `)})`);
  return sql`INSERT INTO access_audit (${sql.join(auditFields.map((field) => sql.identifier(columns[field].name)), sql`, `)}) VALUES ${sql.join(rows, sql`, `)}`;
}

/**
 * The inserts, built once so each is compiled (and on SQLite prepared) once: a batch is written
 * as full statements of `rowsPerInsert` rows and single rows for the rest, whatever its size.
 * Building a statement per batch instead cost ~50 µs a record, most of the trail's cost.
 */
const rowsPerInsert = 25;
const insertMany = insertRowsQuery(rowsPerInsert);
const insertOne = insertRowsQuery(1);
const newestLink = sql`SELECT seq AS "seq", hash AS "hash" FROM access_audit ORDER BY seq DESC LIMIT 1`;

function valuesOf(records: readonly AccessAuditRecord[]): PlaceholderValues {
  const values: PlaceholderValues = {};
  records.forEach((record, row) => {
    for (const field of auditFields) values[`${field}${row}`] = record[field];
  });
  return values;
}
/**
 * The PostgreSQL advisory lock appending transactions take, so that the nodes of a site append one
 * after another and never fork the chain (an arbitrary constant of this application).
 */
const appendLockKey = sql.raw('7301190019');

/** The `access_audit` table: appended in chained batches, read newest first or in seq order. */
export class AccessAuditRepository {
  constructor(private readonly db: SqlDatabase) {}

  /**
   * Appends records after the newest one, in one transaction: numbered from its seq and chained
   * from its hash. On PostgreSQL an advisory lock serialises appends across nodes (and the seq,
   * the primary key, refuses a fork if anything slipped past it); on SQLite the write transaction
   * holds the database.
   */
  append(records: readonly UnchainedAuditRecord[]): Promise<void> {
    if (records.length === 0) return Promise.resolve();
    return this.db.transaction(async (tx) => {
      if (tx.dialect === 'postgres') await tx.run(sql`SELECT pg_advisory_xact_lock(${appendLockKey})`);
      const chained = chainRecords(await tx.get<{ seq: number; hash: string }>(newestLink), records);
      let start = 0;
      for (; start + rowsPerInsert <= chained.length; start += rowsPerInsert) await tx.run(insertMany, valuesOf(chained.slice(start, start + rowsPerInsert)));
      for (; start < chained.length; start += 1) await tx.run(insertOne, valuesOf([chained[start]!]));
    });
  }

  /** Records matching the filter, newest first, at most `limit`. */
  newest(filter: AccessAuditFilter, limit: number): Promise<AccessAuditRecord[]> {
    return this.db.all<AccessAuditRecord>(sql`SELECT ${auditColumns} FROM access_audit${whereOf(filter)} ORDER BY seq DESC LIMIT ${limit}`);
  }

  /** Records in seq order after `afterSeq`, at most `limit`: the chain page by page. */
  inOrderAfter(afterSeq: number, limit: number): Promise<AccessAuditRecord[]> {
    return this.db.all<AccessAuditRecord>(sql`SELECT ${auditColumns} FROM access_audit WHERE seq > ${afterSeq} ORDER BY seq LIMIT ${limit}`);
  }
}

function whereOf(filter: AccessAuditFilter): SQL {
  const conditions: SQL[] = [];
  if (filter.callId !== undefined) conditions.push(sql`call_id = ${filter.callId}`);
  if (filter.actorId !== undefined) conditions.push(sql`actor_id = ${filter.actorId}`);
  if (filter.action !== undefined) conditions.push(sql`action = ${filter.action}`);
  if (filter.from !== undefined) conditions.push(sql`at >= ${filter.from}`);
  if (filter.to !== undefined) conditions.push(sql`at < ${filter.to}`);
  if (filter.before !== undefined) conditions.push(sql`seq < ${filter.before}`);
  return conditions.length === 0 ? sql`` : sql` WHERE ${sql.join(conditions, sql` AND `)}`;
}
