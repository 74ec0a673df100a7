import type { Insertable } from 'kysely';
import { type MergedRows, mergeOperations, rowWrites } from '../apply';
import type { RecordedEvent } from '../event-source';
import type { AnyProjection, Projection, RowOperation } from '../projection';

/** A projection's tables as rows, by table name: the columns written (generated ones are PostgreSQL's). */
export type TableRows<DB> = { readonly [Table in keyof DB & string]?: readonly Insertable<DB[Table]>[] };

/**
 * Given/when/then for a projection, without a database: the history's and the event's row operations are
 * merged (`mergeOperations`) and turned into the writes the runner sends (`rowWrites`), and the rows those
 * writes insert are the tables' rows. An update of a row that no event inserted changes nothing, as the
 * UPDATE statement finds no row; a table the projection does not own fails, as the runner does.
 *
 *   projectionSpecification(ticketsProjection)(created, paid).when(activated).then({ tickets: [row] });
 */
export function projectionSpecification<Name extends string, DB>(projection: Projection<Name, DB>) {
  const untyped = projection as unknown as AnyProjection;
  return (...history: readonly RecordedEvent[]) => ({
    when(event: RecordedEvent) {
      return {
        /** The tables after the history and `event`: every table of the projection (none given: no rows), rows in insertion order. */
        then(expected: TableRows<DB>): void {
          const merged = mergeOperations([...history, event].flatMap((e) => untyped.project(e)));
          expect(tablesOf(untyped, merged)).toEqual(Object.fromEntries(untyped.tables.map((t) => [t.name, tableOf(expected, t.name)])));
        },
        /** The row operations of `event` alone, whatever the history (projections read no state). */
        thenOperations(expected: readonly RowOperation<DB>[]): void {
          expect(projection.project(event)).toEqual(expected);
        },
        /** `event` cannot be applied (a poisoned event): the projection throws. */
        thenFails(): void {
          expect(() => projection.project(event)).toThrow();
        },
      };
    },
  });
}

function tableOf<DB>(expected: TableRows<DB>, name: string): readonly unknown[] {
  return (expected as Record<string, readonly unknown[] | undefined>)[name] ?? [];
}

/** Each table's inserted rows, as `rowWrites` sends them to PostgreSQL (its JSON parameter, read back). */
function tablesOf(projection: AnyProjection, merged: MergedRows): Record<string, unknown[]> {
  // Every write built, updates included: this is where a table the projection does not own fails.
  rowWrites(projection, merged);
  return Object.fromEntries(
    projection.tables.map((table) => {
      const inserts = new Map([...(merged.get(table.name) ?? [])].filter(([, row]) => row.kind === 'insert'));
      const writes = inserts.size === 0 ? [] : rowWrites(projection, new Map([[table.name, inserts]]));
      return [table.name, writes.flatMap((write) => JSON.parse(write.rows) as unknown[])];
    }),
  );
}
