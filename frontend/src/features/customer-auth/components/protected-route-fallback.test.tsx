import { act, render } from '@testing-library/react';
import { MemoryRouter } from 'react-router-dom';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { hardRedirect } from '../lib/hard-redirect';
import { LoginRedirect, PROTECTED_FALLBACK_MS } from './protected-route';

vi.mock('../lib/hard-redirect', () => ({ hardRedirect: vi.fn() }));

beforeEach(() => {
  vi.useFakeTimers();
  vi.mocked(hardRedirect).mockClear();
});

afterEach(() => {
  vi.useRealTimers();
  window.history.replaceState(null, '', '/');
});

/**
 * The soft redirect moves a memory router here, and no route table unmounts the component: the situation the
 * fallback is for, a page that stays on screen. The browser's address stays where the test puts it.
 */
function renderRedirect() {
  return render(
    <MemoryRouter initialEntries={['/customer/dashboard']}>
      <LoginRedirect from="/customer/dashboard" />
    </MemoryRouter>,
  );
}

describe('the protected-route fallback', () => {
  it('loads the login page after 300 ms when the browser is still on the protected path', () => {
    window.history.replaceState(null, '', '/customer/dashboard');
    renderRedirect();
    act(() => {
      vi.advanceTimersByTime(PROTECTED_FALLBACK_MS - 10);
    });
    expect(hardRedirect).not.toHaveBeenCalled();
    act(() => {
      vi.advanceTimersByTime(20);
    });
    expect(hardRedirect).toHaveBeenCalledExactlyOnceWith('/customer/login?returnTo=%2Fcustomer%2Fdashboard');
  });

  it('does nothing once the browser has left the protected path', () => {
    window.history.replaceState(null, '', '/customer/login');
    renderRedirect();
    act(() => {
      vi.advanceTimersByTime(1000);
    });
    expect(hardRedirect).not.toHaveBeenCalled();
  });
});
