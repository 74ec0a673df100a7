import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { lazy, Suspense, type ComponentType } from 'react';
import { MemoryRouter, Route, Routes } from 'react-router-dom';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { RootLayout } from './root-layout';
import { AppErrorBoundary } from '../components/errors/app-error-boundary';
import { isChunkLoadError } from '../components/errors/error-fallback';

function Throws(): never {
  throw new Error('Cannot read properties of undefined (reading "name")');
}

/** A lazy page whose chunk fails to download, with the message Chromium gives a failed dynamic import. */
function brokenChunk(): ComponentType {
  return lazy(() => Promise.reject(new TypeError('Failed to fetch dynamically imported module: http://localhost/assets/about-x1.js')));
}

beforeEach(() => {
  // React reports every caught error on the console; the fallback is what these tests look at.
  vi.spyOn(console, 'error').mockImplementation(() => undefined);
});

afterEach(() => {
  vi.restoreAllMocks();
});

describe('AppErrorBoundary', () => {
  it('shows a message, a Reload button and a link home when a page throws while rendering', async () => {
    const reload = vi.fn();
    render(
      <AppErrorBoundary onReload={reload}>
        <Throws />
      </AppErrorBoundary>,
    );
    expect(screen.getByRole('heading', { level: 1, name: 'Something went wrong' })).toBeInTheDocument();
    expect(screen.getByRole('alert')).toHaveTextContent('Reloading the page usually fixes it.');
    expect(screen.getByRole('link', { name: 'Go to the homepage' })).toHaveAttribute('href', '/');
    await userEvent.click(screen.getByRole('button', { name: 'Reload page' }));
    expect(reload).toHaveBeenCalledTimes(1);
  });

  it('says the page could not be loaded when a lazy chunk fails to download', async () => {
    const reload = vi.fn();
    const Page = brokenChunk();
    render(
      <AppErrorBoundary onReload={reload}>
        <Suspense fallback={<p>Loading…</p>}>
          <Page />
        </Suspense>
      </AppErrorBoundary>,
    );
    expect(await screen.findByRole('heading', { level: 1, name: 'This page could not be loaded' })).toBeInTheDocument();
    expect(screen.queryByText('Loading…')).not.toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Go to the homepage' })).toHaveAttribute('href', '/');
    await userEvent.click(screen.getByRole('button', { name: 'Reload page' }));
    expect(reload).toHaveBeenCalledTimes(1);
  });

  it('clears the error when its reset key changes (a navigation)', () => {
    const { rerender } = render(
      <AppErrorBoundary resetKey="/broken">
        <Throws />
      </AppErrorBoundary>,
    );
    expect(screen.getByRole('heading', { name: 'Something went wrong' })).toBeInTheDocument();
    rerender(
      <AppErrorBoundary resetKey="/fine">
        <p>Fine page</p>
      </AppErrorBoundary>,
    );
    expect(screen.getByText('Fine page')).toBeInTheDocument();
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });

  it('inside the layout, a failing page keeps the header, navigation and footer', async () => {
    const Page = brokenChunk();
    render(
      <MemoryRouter initialEntries={['/about-us']}>
        <Routes>
          <Route element={<RootLayout />}>
            <Route path="/about-us" element={<Page />} />
          </Route>
        </Routes>
      </MemoryRouter>,
    );
    const heading = await screen.findByRole('heading', { level: 1, name: 'This page could not be loaded' });
    expect(screen.getByRole('main')).toContainElement(heading);
    expect(screen.getByRole('navigation', { name: 'Main' })).toBeInTheDocument();
    expect(screen.getByRole('contentinfo')).toBeInTheDocument();
  });
});

describe('isChunkLoadError', () => {
  it('recognises the failed dynamic import of each browser and of Vite, and nothing else', () => {
    expect(isChunkLoadError(new TypeError('Failed to fetch dynamically imported module: https://x/assets/a.js'))).toBe(true);
    expect(isChunkLoadError(new TypeError('error loading dynamically imported module: https://x/assets/a.js'))).toBe(true);
    expect(isChunkLoadError(new TypeError('Importing a module script failed.'))).toBe(true);
    expect(isChunkLoadError(new Error('Unable to preload CSS for /assets/a.css'))).toBe(true);
    expect(isChunkLoadError(new Error('Cannot read properties of undefined'))).toBe(false);
    expect(isChunkLoadError('Failed to fetch dynamically imported module')).toBe(false);
  });
});
