import type { Prisma } from '../../generated/prisma/client';

/** Insertion: rows written as JSON bulk inserts, for the hot fan-out tables and for any table. */

export type Row = Record<string, string | number | null>;
export type Columns = readonly (readonly [name: string, sqlType: string])[];
export const BULK_BATCH = 5000;

/**
 * Multi-row insert with a single JSON parameter (`json_to_recordset`). Prisma 7's createMany spends
 * ~0.3 ms of client CPU per row (query compiler + parameter mapping), which dominated a 100k-row
 * seed; this path costs the client almost nothing and works the same on PostgreSQL and PGlite.
 * `json`, not `jsonb`: the text is read once, so converting it to jsonb first only costs (25–45 %
 * of the parsing, measured on 100k ledger rows). Rows use column names; every listed column must be
 * present (null where empty).
 */
export async function bulkInsert(tx: Prisma.TransactionClient, table: string, columns: Columns, rows: Row[]): Promise<void> {
  const names = columns.map(([n]) => `"${n}"`).join(', ');
  const types = columns.map(([n, t]) => `"${n}" ${t}`).join(', ');
  await tx.$executeRawUnsafe(`INSERT INTO "${table}" (${names}) SELECT ${names} FROM json_to_recordset($1::json) AS r(${types})`, JSON.stringify(rows));
}

const snakeCase = (field: string) => field.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);

/**
 * createMany's semantics through bulkInsert, for any table: fields named as in the Prisma model
 * (camelCase; every column here is their snake_case), an absent field takes the column's default.
 * Rows are grouped by the fields they set, and each group is one statement per chunk.
 */
export function bulkCreator(tx: Prisma.TransactionClient): (table: string, rows: object[]) => Promise<void> {
  const types = new Map<string, Map<string, string>>();
  const columnTypes = async (table: string) => {
    let map = types.get(table);
    if (!map) {
      const rows = await tx.$queryRawUnsafe<{ name: string; type: string }[]>(
        `SELECT attname AS name, format_type(atttypid, atttypmod) AS type FROM pg_attribute WHERE attrelid = $1::regclass AND attnum > 0 AND NOT attisdropped`,
        `"${table}"`,
      );
      map = new Map(rows.map((r) => [r.name, r.type]));
      types.set(table, map);
    }
    return map;
  };
  return async (table, rows) => {
    const known = await columnTypes(table);
    const groups = new Map<string, Row[]>();
    for (const row of rows) {
      const out: Row = {};
      for (const [field, value] of Object.entries(row)) if (value !== undefined) out[snakeCase(field)] = value as Row[string];
      const key = Object.keys(out).join();
      const group = groups.get(key);
      if (group) group.push(out);
      else groups.set(key, [out]);
    }
    for (const [key, group] of groups) {
      const columns = key.split(',').map((name): readonly [string, string] => {
        const type = known.get(name);
        if (!type) throw new Error(`seed: ${table} has no column ${name}`);
        return [name, type];
      });
      await bulkInsert(tx, table, columns, group);
    }
  };
}
