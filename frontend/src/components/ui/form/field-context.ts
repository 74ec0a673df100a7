import { createContext, useContext } from 'react';

export interface FieldControlProps {
  id: string;
  'aria-invalid': true | undefined;
  'aria-describedby': string | undefined;
  required: boolean | undefined;
}

/** Lets a control inside a `Field` pick up its id and ARIA wiring without the caller repeating them. */
export const FieldContext = createContext<FieldControlProps | null>(null);

export function useFieldControl(): FieldControlProps | null {
  return useContext(FieldContext);
}

/** Joins describedby ids, dropping empty ones; undefined when nothing is left (no dangling attribute). */
export function joinIds(...ids: readonly (string | undefined | false)[]): string | undefined {
  const kept = ids.filter((id): id is string => typeof id === 'string' && id.length > 0);
  return kept.length > 0 ? kept.join(' ') : undefined;
}
