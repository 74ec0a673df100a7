import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { Spinner } from './spinner';

describe('Spinner', () => {
  it('is a status with an accessible label', () => {
    render(<Spinner label="Loading your tickets..." />);
    expect(screen.getByRole('status')).toHaveTextContent('Loading your tickets...');
  });

  it('defaults its label to Loading...', () => {
    render(<Spinner />);
    expect(screen.getByRole('status', { name: '' })).toHaveTextContent('Loading...');
  });
});
