import { fillPlaceholders, type SQL } from 'drizzle-orm';
import type { PlaceholderValues } from './SqlDatabase.js';

/** A query compiled for one engine: its text and its parameters (placeholders not yet filled). */
export interface CompiledQuery {
  text: string;
  params: unknown[];
}

/**
 * Compiles queries for one engine, each query object once: a query built once and run many
 * times (with `sql.placeholder`s) costs one compilation, one built per call costs one per call.
 */
export class QueryCompiler {
  private readonly compiled = new WeakMap<SQL, CompiledQuery>();

  constructor(private readonly compile: (query: SQL) => { sql: string; params: unknown[] }) {}

  /** The query's text and its parameter values, placeholders filled from `values`. */
  prepare(query: SQL, values?: PlaceholderValues): CompiledQuery {
    let compiled = this.compiled.get(query);
    if (!compiled) {
      const { sql, params } = this.compile(query);
      compiled = { text: sql, params };
      this.compiled.set(query, compiled);
    }
    return { text: compiled.text, params: values ? fillPlaceholders(compiled.params, values) : compiled.params };
  }
}
