import { render, type RenderResult } from '@testing-library/react';
import type { ReactElement } from 'react';
import { MemoryRouter, useLocation } from 'react-router-dom';
import { AppProviders } from '../app/providers';

/** Shows the router's current path and query ("Now at /path?query"), for tests that follow a redirect. */
export function CurrentLocation() {
  const location = useLocation();
  return <p>Now at {`${location.pathname}${location.search}`}</p>;
}

/** Renders a component inside the app's providers and a router at the given URL. */
export function renderWithApp(ui: ReactElement, { route = '/' }: { route?: string } = {}): RenderResult {
  return render(
    <AppProviders>
      <MemoryRouter initialEntries={[route]}>{ui}</MemoryRouter>
    </AppProviders>,
  );
}
