import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderWithApp } from '../test/render';
import { AppRoutes } from './router';

// The router is generated from the route table: a generated route must reach its page with its data.
describe('AppRoutes', () => {
  it.each([
    ['/', 'IT support and computer repair that answers within the hour'],
    ['/arlington/services', 'IT Support Services in Arlington'],
    ['/rockville/services', 'Computer Repair Services in Rockville'],
    ['/computer-repair-tysons-corner', 'Computer Repair in Tysons Corner, Virginia'],
    ['/ticket/12', 'My Account'],
    ['/support-request', 'Request IT Support'],
    ['/nowhere/services', '404 Page Not Found'],
    ['/computer-repair-baltimore', '404 Page Not Found'],
  ])('%s renders "%s"', async (path, heading) => {
    renderWithApp(<AppRoutes />, { route: path });
    expect(await screen.findByRole('heading', { level: 1 }, { timeout: 5000 })).toHaveTextContent(heading);
  });
});
