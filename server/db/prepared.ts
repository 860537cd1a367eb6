import type { Compilable, CompiledQuery, Kysely } from 'kysely';
import { poolIfAny } from './database.js';
import type { Database } from './schema.js';

/**
 * A Kysely query built and compiled once, then run with new parameter values: Kysely otherwise builds
 * the query's tree and compiles it to SQL on every call, which on a hot read (an authenticated request
 * that is one query) costs more than everything else the server does for it. Only for queries whose
 * shape never changes with the values (no `$if`, no optional clauses).
 *
 * `build` receives placeholders for the arguments and must use them as plain values; the compiled SQL
 * is kept, and each call sends it with the real values where the placeholders were. It runs on whatever
 * handle it is given (the pool or a transaction): the SQL is the same for both.
 */
export function prepareQuery<Args extends unknown[], Row>(build: (db: Kysely<Database>, ...args: Args) => Compilable<Row>) {
  let compiled: CompiledQuery<Row> | null = null;
  /** For each parameter of the SQL: the index of the argument it takes, or -1 for a constant of the query. */
  let argumentIndexes: number[] = [];
  const compile = (db: Kysely<Database>, arity: number) => {
    const placeholders = Array.from({ length: arity }, (_, index) => Object.freeze({ preparedArgument: index }));
    const query = build(db, ...(placeholders as unknown as Args)).compile();
    argumentIndexes = query.parameters.map((parameter) => placeholders.indexOf(parameter as (typeof placeholders)[number]));
    return query;
  };
  return async (db: Kysely<Database>, ...args: Args): Promise<Row[]> => {
    compiled ??= compile(db, args.length);
    const query = compiled;
    const parameters = query.parameters.map((constant, index) => (argumentIndexes[index] >= 0 ? args[argumentIndexes[index]] : constant));
    // On the pool itself the SQL goes straight to pg (Kysely's connection and executor layers are a
    // few awaits per call); in a transaction, through the transaction's handle.
    const pool = poolIfAny(db);
    if (pool) return (await pool.query(query.sql, parameters as unknown[])).rows as Row[];
    const result = await db.executeQuery<Row>({ ...query, parameters });
    return result.rows;
  };
}
