import type { Projection, ProjectionTable, RowOperation } from './projection';
import type { Queryable } from './queryable';


interface Pending {
  kind: 'insert' | 'update';
  values: Record<string, unknown>;
}

export function quoteIdentifier(name: string): string {
  return `"${name.replace(/"/g, '""')}"`;
}

function tableRef(table: string, schema: string | undefined): string {
  return schema ? `${quoteIdentifier(schema)}.${quoteIdentifier(table)}` : quoteIdentifier(table);
}

/**
 * Folds a batch's operations per row, in order: an insert followed by updates becomes one insert,
 * several updates one update. Two inserts of one row is an error (the same entity created twice).
 */
export function mergeOperations(operations: readonly RowOperation[]): Map<string, Map<string | number, Pending>> {
  const tables = new Map<string, Map<string | number, Pending>>();
  for (const op of operations) {
    let rows = tables.get(op.table);
    if (!rows) tables.set(op.table, (rows = new Map()));
    const existing = rows.get(op.key);
    if (!existing) {
      rows.set(op.key, { kind: op.kind, values: { ...op.values } });
    } else if (op.kind === 'update') {
      Object.assign(existing.values, op.values);
    } else {
      throw new Error(`Row ${op.table}/${String(op.key)} inserted twice`);
    }
  }
  return tables;
}

/** Writes a batch's merged operations: one INSERT and one UPDATE per table at most. */
export async function applyOperations(
  db: Queryable,
  projection: Projection,
  operations: readonly RowOperation[],
  schema?: string,
): Promise<void> {
  if (operations.length === 0) return;
  for (const [tableName, rows] of mergeOperations(operations)) {
    const table: ProjectionTable | undefined = projection.tables.find((t) => t.name === tableName);
    if (!table) throw new Error(`Projection ${projection.name} wrote to ${tableName}, which it does not own`);
    const ref = tableRef(table.name, schema);
    const inserts: Record<string, unknown>[] = [];
    const updates: Record<string, unknown>[] = [];
    for (const [key, pending] of rows) {
      if (pending.kind === 'insert') inserts.push(pending.values);
      else updates.push({ ...pending.values, [table.key]: key });
    }
    if (inserts.length > 0) {
      const columns = [...new Set(inserts.flatMap((row) => Object.keys(row)))].map(quoteIdentifier).join(', ');
      await db.query(
        `INSERT INTO ${ref} (${columns}) SELECT ${columns} FROM jsonb_populate_recordset(NULL::${ref}, $1::jsonb)`,
        [JSON.stringify(inserts)],
      );
    }
    if (updates.length > 0) {
      const names = [...new Set(updates.flatMap((row) => Object.keys(row)))].filter((name) => name !== table.key);
      if (names.length === 0) continue;
      const columns = names.map(quoteIdentifier);
      await db.query(
        `UPDATE ${ref} AS t SET (${columns.join(', ')}) = (
           SELECT ${columns.map((c) => `r.${c}`).join(', ')} FROM jsonb_populate_record(t, p.patch) AS r)
         FROM jsonb_array_elements($1::jsonb) AS p(patch)
         WHERE t.${quoteIdentifier(table.key)} = (p.patch->>'${table.key}')::${table.keyType}`,
        [JSON.stringify(updates)],
      );
    }
  }
}
