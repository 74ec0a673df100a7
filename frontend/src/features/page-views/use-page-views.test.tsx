import { render } from '@testing-library/react';
import { MemoryRouter, useNavigate } from 'react-router-dom';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { isTrackedPath, usePageViews } from './use-page-views';

afterEach(() => {
  vi.unstubAllGlobals();
});

function Probe({ to }: { to: string }) {
  usePageViews();
  const navigate = useNavigate();
  return (
    <button type="button" onClick={() => void navigate(to)}>
      go
    </button>
  );
}

describe('page views', () => {
  it('counts every route but the admin portal', () => {
    expect(isTrackedPath('/')).toBe(true);
    expect(isTrackedPath('/support-request')).toBe(true);
    expect(isTrackedPath('/administrator-tips')).toBe(true);
    expect(isTrackedPath('/admin')).toBe(false);
    expect(isTrackedPath('/admin/dashboard')).toBe(false);
  });

  it('posts the path (never the query) on each route change, and not for admin routes', async () => {
    const fetch = vi.fn(() => Promise.resolve(new Response(null, { status: 204 })));
    vi.stubGlobal('fetch', fetch);
    const view = render(
      <MemoryRouter initialEntries={['/payment?ticket_id=4&token=secret']}>
        <Probe to="/admin/dashboard" />
      </MemoryRouter>,
    );
    await vi.waitFor(() => expect(fetch).toHaveBeenCalledTimes(1));
    const [url, init] = fetch.mock.calls[0] as unknown as [string, RequestInit];
    expect(url).toBe('/api/page-views');
    expect(JSON.parse(init.body as string)).toEqual({ path: '/payment' });
    view.getByRole('button').click();
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(fetch).toHaveBeenCalledTimes(1);
  });
});
