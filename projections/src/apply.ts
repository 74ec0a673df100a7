import type { AnyProjection, AnyRowOperation, ProjectionTable, RowKey } from './projection';
import type { Queryable } from './queryable';

/** One row's pending write after merging: an insert (possibly with later updates folded in) or an update. */
export interface MergedRow {
  readonly kind: 'insert' | 'update';
  readonly values: Record<string, unknown>;
}

/** A batch's writes after merging: per table, per row key, one insert or one update. */
export type MergedRows = Map<string, Map<RowKey, MergedRow>>;

/** Two inserts of one row in the operations given to `mergeOperations`: the same entity created twice. */
export class DuplicateRowInsertError extends Error {
  override readonly name = 'DuplicateRowInsertError';
  constructor(
    readonly table: string,
    readonly key: RowKey,
    /** Index of the second insert in the operations, so a caller can tell which event it came from. */
    readonly index: number,
  ) {
    super(`Row ${table}/${String(key)} inserted twice`);
  }
}

export function quoteIdentifier(name: string): string {
  return `"${name.replace(/"/g, '""')}"`;
}

function tableRef(table: string, schema: string | undefined): string {
  return schema ? `${quoteIdentifier(schema)}.${quoteIdentifier(table)}` : quoteIdentifier(table);
}

/**
 * Folds a batch's operations per row, in order: an insert followed by updates becomes one insert,
 * several updates one update (later values win). Pure. Throws `DuplicateRowInsertError` on a second
 * insert of a row, since merging it would silently drop one of the two.
 */
export function mergeOperations(operations: readonly AnyRowOperation[]): MergedRows {
  const tables: MergedRows = new Map();
  operations.forEach((op, index) => {
    let rows = tables.get(op.table);
    if (!rows) tables.set(op.table, (rows = new Map<RowKey, MergedRow>()));
    const existing = rows.get(op.key);
    if (!existing) {
      rows.set(op.key, { kind: op.kind, values: { ...op.values } });
    } else if (op.kind === 'update') {
      Object.assign(existing.values, op.values);
    } else {
      throw new DuplicateRowInsertError(op.table, op.key, index);
    }
  });
  return tables;
}

function ownedTable(projection: AnyProjection, name: string): ProjectionTable {
  const table = projection.tables.find((t) => t.name === name);
  if (!table) throw new Error(`Projection ${projection.name} wrote to ${name}, which it does not own`);
  return table;
}

/** One write statement of a batch: its SQL given where its JSON parameter is and an extra condition. */
export interface RowWrite {
  /** `param`: the placeholder of the rows' JSON (`$1`); `guard`: a condition every row must meet too, or none. */
  sql(param: string, guard?: string): string;
  /** The rows, as the one JSON parameter. */
  readonly rows: string;
}

/**
 * The statements that write merged rows: one INSERT and one UPDATE per table at most, the rows travelling
 * as one JSON parameter each (`jsonb_populate_recordset` turns them into typed rows). `schema` names where
 * the tables are (a replay's fresh schema); without it, the connection's search_path decides.
 */
export function rowWrites(projection: AnyProjection, merged: MergedRows, schema?: string): RowWrite[] {
  const writes: RowWrite[] = [];
  for (const [tableName, rows] of merged) {
    const table = ownedTable(projection, tableName);
    const ref = tableRef(table.name, schema);
    const inserts: Record<string, unknown>[] = [];
    const updates: Record<string, unknown>[] = [];
    for (const [key, row] of rows) {
      if (row.kind === 'insert') inserts.push(row.values);
      else updates.push({ ...row.values, [table.key]: key });
    }
    if (inserts.length > 0) {
      const columns = [...new Set(inserts.flatMap((row) => Object.keys(row)))].map(quoteIdentifier).join(', ');
      writes.push({
        sql: (param, guard) =>
          `INSERT INTO ${ref} (${columns}) SELECT ${columns} FROM jsonb_populate_recordset(NULL::${ref}, ${param}::jsonb)` +
          (guard ? ` WHERE ${guard}` : ''),
        rows: JSON.stringify(inserts),
      });
    }
    const names = [...new Set(updates.flatMap((row) => Object.keys(row)))].filter((name) => name !== table.key);
    if (names.length > 0) {
      const columns = names.map(quoteIdentifier);
      writes.push({
        sql: (param, guard) =>
          `UPDATE ${ref} AS t SET (${columns.join(', ')}) = (
             SELECT ${columns.map((c) => `r.${c}`).join(', ')} FROM jsonb_populate_record(t, p.patch) AS r)
           FROM jsonb_array_elements(${param}::jsonb) AS p(patch)
           WHERE t.${quoteIdentifier(table.key)} = (p.patch->>'${table.key}')::${table.keyType}` + (guard ? ` AND ${guard}` : ''),
        rows: JSON.stringify(updates),
      });
    }
  }
  return writes;
}

/**
 * Writes merged rows in one statement (see `rowWrites`): its writes as data-modifying CTEs, which PostgreSQL runs
 * to completion whether or not the query reads them. An update never targets a row inserted in the same batch
 * (merging folded it into the insert), so the writes need not see one another.
 */
export async function writeRows(db: Queryable, projection: AnyProjection, merged: MergedRows, schema?: string): Promise<void> {
  const writes = rowWrites(projection, merged, schema);
  if (writes.length === 0) return;
  if (writes.length === 1) {
    await db.query(writes[0]!.sql('$1'), [writes[0]!.rows]);
    return;
  }
  const ctes = writes.map((write, index) => `w${index} AS (${write.sql(`$${index + 1}`)})`).join(', ');
  await db.query(
    `WITH ${ctes} SELECT 1`,
    writes.map((write) => write.rows),
  );
}

/** Merges a batch's operations and writes them (see `mergeOperations` and `writeRows`). */
export async function applyOperations(
  db: Queryable,
  projection: AnyProjection,
  operations: readonly AnyRowOperation[],
  schema?: string,
): Promise<void> {
  if (operations.length > 0) await writeRows(db, projection, mergeOperations(operations), schema);
}
