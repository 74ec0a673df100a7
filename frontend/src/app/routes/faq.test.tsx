import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import FaqRoute from './faq';
import { FAQ_SECTIONS } from '../../config/faq';
import { renderWithApp } from '../../test/render';
import { FaqAccordion } from '../../features/faq/components/faq-accordion';

describe('FAQ page', () => {
  it('has the three sections and a Contact Us link', () => {
    renderWithApp(<FaqRoute />);
    for (const title of ['General Questions', 'Technical Support', 'Payment & Policies']) {
      expect(screen.getByRole('heading', { level: 2, name: title })).toBeInTheDocument();
    }
    expect(screen.getByRole('link', { name: 'Contact Us' })).toHaveAttribute('href', '/contact');
  });
});

describe('FaqAccordion', () => {
  const first = FAQ_SECTIONS[0]!.items[0]!;
  const second = FAQ_SECTIONS[0]!.items[1]!;

  it('starts collapsed and opens a question on click, one at a time per section', async () => {
    renderWithApp(<FaqAccordion sections={FAQ_SECTIONS} />);
    const trigger = screen.getByRole('button', { name: first.question });
    expect(trigger).toHaveAttribute('aria-expanded', 'false');
    expect(screen.queryByText(first.answer)).not.toBeInTheDocument();

    await userEvent.click(trigger);
    expect(trigger).toHaveAttribute('aria-expanded', 'true');
    expect(screen.getByRole('region', { name: first.question })).toHaveTextContent(first.answer);

    await userEvent.click(screen.getByRole('button', { name: second.question }));
    expect(trigger).toHaveAttribute('aria-expanded', 'false');
    expect(screen.getByText(second.answer)).toBeInTheDocument();

    await userEvent.click(screen.getByRole('button', { name: second.question }));
    expect(screen.queryByText(second.answer)).not.toBeInTheDocument();
  });

  it('works from the keyboard: Tab to a question, Enter or Space toggles, arrows move', async () => {
    renderWithApp(<FaqAccordion sections={FAQ_SECTIONS} />);
    await userEvent.tab();
    const trigger = screen.getByRole('button', { name: first.question });
    expect(trigger).toHaveFocus();
    await userEvent.keyboard('{Enter}');
    expect(trigger).toHaveAttribute('aria-expanded', 'true');
    await userEvent.keyboard(' ');
    expect(trigger).toHaveAttribute('aria-expanded', 'false');
    await userEvent.keyboard('{ArrowDown}');
    expect(screen.getByRole('button', { name: second.question })).toHaveFocus();
  });

  it('puts each question in a heading', () => {
    renderWithApp(<FaqAccordion sections={FAQ_SECTIONS} />);
    expect(screen.getAllByRole('heading', { level: 3 })).toHaveLength(FAQ_SECTIONS.reduce((n, s) => n + s.items.length, 0));
  });
});
