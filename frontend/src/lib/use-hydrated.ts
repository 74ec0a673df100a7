import { useSyncExternalStore } from 'react';

const noop = () => () => {};

/**
 * False while rendering on the server and during hydration, true afterwards. Lets a prerendered page
 * read browser-only state (query strings, storage) without a hydration mismatch.
 */
export function useHydrated(): boolean {
  return useSyncExternalStore(
    noop,
    () => true,
    () => false,
  );
}
