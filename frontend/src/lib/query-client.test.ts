import { describe, expect, it } from 'vitest';
import { createQueryClient } from './query-client';

describe('createQueryClient', () => {
  it('has the data-fetching defaults of SPEC section 9', () => {
    const defaults = createQueryClient().getDefaultOptions();
    expect(defaults.queries).toMatchObject({ staleTime: Infinity, refetchInterval: false, refetchOnWindowFocus: false, retry: false });
    expect(defaults.mutations).toMatchObject({ retry: false });
  });
});
