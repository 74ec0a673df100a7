import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { renderWithApp } from '../../test/render';
import { SiteHeader } from './site-header';

describe('SiteHeader', () => {
  it('lists the spec navigation and the Get IT Support button', () => {
    renderWithApp(<SiteHeader />);
    const nav = screen.getByRole('navigation', { name: 'Main' });
    expect(
      within(nav)
        .getAllByRole('link')
        .map((link) => link.textContent),
    ).toEqual(['Home', 'Services', 'About Us', 'Support', 'Contact', 'My Account']);
    expect(screen.getAllByRole('link', { name: 'Get IT Support' })[0]).toHaveAttribute('href', '/support-request');
  });

  it('opens the mobile menu from the keyboard and closes it on navigation', async () => {
    renderWithApp(<SiteHeader />, { route: '/' });
    const toggle = screen.getByRole('button', { name: 'Open menu' });
    const menu = document.getElementById('mobile-menu');
    expect(menu).not.toBeVisible();
    toggle.focus();
    await userEvent.keyboard('{Enter}');
    expect(toggle).toHaveAttribute('aria-expanded', 'true');
    expect(menu).toBeVisible();
    await userEvent.click(within(menu!).getByRole('link', { name: 'Services' }));
    expect(menu).not.toBeVisible();
    expect(screen.getByRole('button', { name: 'Open menu' })).toHaveAttribute('aria-expanded', 'false');
  });

  it('closes the mobile menu with Escape and returns focus to the toggle', async () => {
    renderWithApp(<SiteHeader />);
    await userEvent.click(screen.getByRole('button', { name: 'Open menu' }));
    expect(document.getElementById('mobile-menu')).toBeVisible();
    await userEvent.keyboard('{Escape}');
    expect(document.getElementById('mobile-menu')).not.toBeVisible();
    expect(screen.getByRole('button', { name: 'Open menu' })).toHaveFocus();
  });
});
