import { act } from 'react';
import { hydrateRoot } from 'react-dom/client';
import { renderToString } from 'react-dom/server';
import { MemoryRouter } from 'react-router-dom';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { SiteFooter } from './site-footer';

const footer = (
  <MemoryRouter>
    <SiteFooter />
  </MemoryRouter>
);

// hydrateRoot directly, not through Testing Library: tell React that act() is in use.
(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

describe('SiteFooter', () => {
  afterEach(() => {
    vi.useRealTimers();
    document.body.innerHTML = '';
  });

  it('hydrates a page prerendered last year without a mismatch, then shows this year', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date(2026, 11, 31, 12));
    const container = document.createElement('div');
    container.innerHTML = renderToString(footer);
    document.body.append(container);
    expect(container.textContent).toContain('© 2026 ');

    vi.setSystemTime(new Date(2027, 0, 2, 12));
    const recoverable = vi.fn();
    let root: ReturnType<typeof hydrateRoot> | undefined;
    await act(async () => {
      root = hydrateRoot(container, footer, { onRecoverableError: recoverable });
    });
    expect(recoverable).not.toHaveBeenCalled();
    expect(container.textContent).toContain('© 2027 ');
    expect(container.textContent).not.toContain('2026');
    act(() => root?.unmount());
  });
});
