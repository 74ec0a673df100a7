import { act, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { toast } from '../../lib/toast';
import { Toaster } from './toaster';

beforeEach(() => {
  vi.useFakeTimers();
});

afterEach(() => {
  vi.useRealTimers();
});

describe('Toaster', () => {
  it('shows one toast at a time: a new toast replaces the previous one', () => {
    render(<Toaster />);
    act(() => {
      toast({ title: 'First' });
    });
    act(() => {
      toast({ title: 'Second', description: 'Details' });
    });
    expect(screen.queryByText('First')).not.toBeInTheDocument();
    expect(screen.getAllByText('Second').length).toBeGreaterThan(0);
    expect(screen.getAllByRole('listitem')).toHaveLength(1);
  });

  it('closes after 5 seconds', async () => {
    render(<Toaster />);
    act(() => {
      toast({ title: 'Saved' });
    });
    await act(async () => {
      await vi.advanceTimersByTimeAsync(4900);
    });
    expect(screen.getAllByRole('listitem')).toHaveLength(1);
    await act(async () => {
      await vi.advanceTimersByTimeAsync(200);
    });
    expect(screen.queryAllByRole('listitem')).toHaveLength(0);
  });

  it('closes with its Close button and labels the area with the F8 hotkey', () => {
    render(<Toaster />);
    act(() => {
      toast({ title: 'Oops', variant: 'destructive' });
    });
    expect(screen.getByRole('region', { name: 'Notifications (F8)' })).toBeInTheDocument();
    fireEvent.click(screen.getByRole('button', { name: 'Close' }));
    expect(screen.queryAllByRole('listitem')).toHaveLength(0);
  });
});
