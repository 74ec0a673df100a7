import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderWithApp } from '../test/render';
import { ServiceTile } from './service-tile';

const subtopics = ['One', 'Two', 'Three', 'Four', 'Five', 'Six', 'Seven'];

describe('ServiceTile', () => {
  it('shows at most five subtopics', () => {
    renderWithApp(<ServiceTile icon="monitor" name="Windows" description="Desktop help" subtopics={subtopics} />);
    const list = screen.getByRole('list', { name: 'Windows: examples' });
    expect(
      within(list)
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual(['One', 'Two', 'Three', 'Four', 'Five']);
    expect(screen.queryByText('Six')).not.toBeInTheDocument();
  });

  it('shows fewer subtopics when there are fewer', () => {
    renderWithApp(<ServiceTile icon="monitor" name="Windows" subtopics={['Only one']} />);
    expect(within(screen.getByRole('list')).getAllByRole('listitem')).toHaveLength(1);
  });

  it('shows the name, optional description, price note and a Request Support link', () => {
    renderWithApp(<ServiceTile icon="shield" name="Cybersecurity" description="Hardening" subtopics={subtopics} />);
    expect(screen.getByRole('heading', { name: 'Cybersecurity' })).toBeInTheDocument();
    expect(screen.getByText('Hardening')).toBeInTheDocument();
    expect(screen.getByText('Price after diagnosis')).toBeInTheDocument();
    const link = screen.getByRole('link', { name: /Request Support/ });
    expect(link).toHaveAttribute('href', '/support-request');
  });

  it('draws the icon and leaves out the description when there is none', () => {
    const { container } = renderWithApp(<ServiceTile icon="network" name="Networking" subtopics={subtopics} />);
    expect(container.querySelector('article svg')).not.toBeNull();
    expect(container.querySelectorAll('article p')).toHaveLength(0);
  });
});
