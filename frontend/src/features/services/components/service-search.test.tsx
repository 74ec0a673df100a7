import { SERVICE_CATEGORIES } from '@ppr/contracts';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { renderWithApp } from '../../../test/render';
import { filterServices } from '../lib/filter-services';
import { ServiceSearch } from './service-search';

function tileNames(): string[] {
  return screen.queryAllByRole('article').map((article) => within(article).getByRole('heading').textContent ?? '');
}

describe('ServiceSearch', () => {
  it('shows all nine categories before a search', () => {
    renderWithApp(<ServiceSearch services={SERVICE_CATEGORIES} />);
    expect(tileNames()).toEqual(SERVICE_CATEGORIES.map((c) => c.name));
    expect(screen.getByPlaceholderText('Search services...')).toBeInTheDocument();
  });

  it('filters by name, ignoring case', async () => {
    renderWithApp(<ServiceSearch services={SERVICE_CATEGORIES} />);
    await userEvent.type(screen.getByRole('searchbox', { name: 'Search services' }), 'EXCHANGE');
    expect(tileNames()).toEqual(['Microsoft Exchange Server']);
  });

  it('filters by description', async () => {
    renderWithApp(<ServiceSearch services={SERVICE_CATEGORIES} />);
    await userEvent.type(screen.getByRole('searchbox'), 'cmmc and nist');
    expect(tileNames()).toEqual(['Cybersecurity & Compliance (DISA STIG, Hardening)']);
  });

  it('filters by a subtopic, even one beyond the five shown on the tile', async () => {
    const storage = SERVICE_CATEGORIES.find((c) => c.id === 'storage');
    const hidden = storage?.subtopics[8] ?? '';
    expect(hidden).toBe('File permission cleanups');
    renderWithApp(<ServiceSearch services={SERVICE_CATEGORIES} />);
    await userEvent.type(screen.getByRole('searchbox'), 'file permission');
    expect(tileNames()).toEqual(['Storage & Backup Solutions']);
  });

  it('shows the empty state and restores every service with Show all services', async () => {
    renderWithApp(<ServiceSearch services={SERVICE_CATEGORIES} />);
    const box = screen.getByRole('searchbox');
    await userEvent.type(box, 'espresso machine');
    expect(tileNames()).toEqual([]);
    expect(screen.getByText('No services match your search criteria')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Show all services' }));
    expect(box).toHaveValue('');
    // The button is gone: focus is back in the search box, not lost to the page.
    expect(box).toHaveFocus();
    expect(tileNames()).toHaveLength(9);
    expect(screen.queryByText('No services match your search criteria')).not.toBeInTheDocument();
  });
});

describe('filterServices', () => {
  const services = [
    { name: 'Alpha', description: 'First thing', subtopics: ['one', 'two'] },
    { name: 'Beta', subtopics: ['Three'] },
  ];
  it('returns everything for a blank query and matches trimmed, case-insensitive text', () => {
    expect(filterServices(services, '   ')).toHaveLength(2);
    expect(filterServices(services, ' three ').map((s) => s.name)).toEqual(['Beta']);
    expect(filterServices(services, 'FIRST').map((s) => s.name)).toEqual(['Alpha']);
    expect(filterServices(services, 'zzz')).toEqual([]);
  });
});
