import { render, type RenderResult } from '@testing-library/react';
import type { ReactElement } from 'react';
import { MemoryRouter } from 'react-router-dom';
import { AppProviders } from '../app/providers';

/** Renders a component inside the app's providers and a router at the given URL. */
export function renderWithApp(ui: ReactElement, { route = '/' }: { route?: string } = {}): RenderResult {
  return render(
    <AppProviders>
      <MemoryRouter initialEntries={[route]}>{ui}</MemoryRouter>
    </AppProviders>,
  );
}
