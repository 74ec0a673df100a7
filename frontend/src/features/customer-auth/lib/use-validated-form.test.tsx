import { fireEvent, render, screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { ApiRequestError } from '../../../lib/api-client';
import * as toasts from '../../../lib/toast';
import { useValidatedForm } from './use-validated-form';

const schema = z
  .object({
    token: z.string(),
    name: z.string().min(1, 'Name is required'),
    code: z.string().min(3, 'Code is too short'),
  })
  .refine((form) => form.code !== form.token, { message: 'Code is refused', path: ['code'] });

function Harness({ token, onValid }: { token: string; onValid: (values: Record<'name' | 'code', string>) => void }) {
  const { values, errors, failure, fail, formRef, update, submit } = useValidatedForm(
    schema,
    ['name', 'code'] as const,
    { name: '', code: '' },
    { token },
  );
  return (
    <form ref={formRef} noValidate aria-label="Harness" onSubmit={(event) => submit(event) && onValid(values)}>
      <input aria-label="Name" name="name" value={values.name} onChange={(event) => update('name', event.target.value)} />
      <input aria-label="Code" name="code" value={values.code} onChange={(event) => update('code', event.target.value)} />
      <p data-testid="errors">{JSON.stringify(errors)}</p>
      <button type="submit">Go</button>
      <button type="button" onClick={() => fail(new ApiRequestError(409, 'Conflict', 'Name taken'), 'Refused', 'Could not save')}>
        Refuse
      </button>
      <button type="button" onClick={() => fail(new Error('network down'), 'Refused', 'Could not save')}>
        Break
      </button>
      {failure ? <p role="alert">{failure}</p> : null}
    </form>
  );
}

const shownErrors = () => JSON.parse(screen.getByTestId('errors').textContent ?? '{}') as unknown;

describe('useValidatedForm', () => {
  it('shows no errors while typing before the first submit', () => {
    render(<Harness token="t" onValid={vi.fn()} />);
    fireEvent.change(screen.getByLabelText('Code'), { target: { value: 'x' } });
    expect(shownErrors()).toEqual({});
  });

  it('on an invalid submit shows every error, focuses the first invalid field and does not go on', () => {
    const onValid = vi.fn();
    render(<Harness token="t" onValid={onValid} />);
    fireEvent.change(screen.getByLabelText('Name'), { target: { value: 'Pat' } });
    fireEvent.click(screen.getByRole('button', { name: 'Go' }));
    expect(shownErrors()).toEqual({ code: 'Code is too short' });
    expect(screen.getByLabelText('Code')).toHaveFocus();
    expect(onValid).not.toHaveBeenCalled();
  });

  it('after a submit the errors follow the values as they change', () => {
    render(<Harness token="bad" onValid={vi.fn()} />);
    fireEvent.click(screen.getByRole('button', { name: 'Go' }));
    expect(screen.getByLabelText('Name')).toHaveFocus();
    fireEvent.change(screen.getByLabelText('Name'), { target: { value: 'Pat' } });
    expect(shownErrors()).toEqual({ code: 'Code is too short' });
    fireEvent.change(screen.getByLabelText('Code'), { target: { value: 'bad' } });
    expect(shownErrors()).toEqual({ code: 'Code is refused' });
    fireEvent.change(screen.getByLabelText('Code'), { target: { value: 'good' } });
    expect(shownErrors()).toEqual({});
  });

  it('checks the fields together with the extra values, and goes on with the values when they pass', () => {
    const onValid = vi.fn();
    render(<Harness token="same" onValid={onValid} />);
    fireEvent.change(screen.getByLabelText('Name'), { target: { value: 'Pat' } });
    fireEvent.change(screen.getByLabelText('Code'), { target: { value: 'same' } });
    fireEvent.click(screen.getByRole('button', { name: 'Go' }));
    expect(shownErrors()).toEqual({ code: 'Code is refused' });
    expect(onValid).not.toHaveBeenCalled();
    fireEvent.change(screen.getByLabelText('Code'), { target: { value: 'other' } });
    fireEvent.click(screen.getByRole('button', { name: 'Go' }));
    expect(shownErrors()).toEqual({});
    expect(onValid).toHaveBeenCalledWith({ name: 'Pat', code: 'other' });
  });

  it("shows a refusal above the fields and in a toast, the server's sentence first, and clears it on the next submit", () => {
    const spy = vi.spyOn(toasts, 'toast');
    render(<Harness token="t" onValid={vi.fn()} />);
    fireEvent.click(screen.getByRole('button', { name: 'Refuse' }));
    expect(screen.getByRole('alert')).toHaveTextContent('Name taken');
    expect(spy).toHaveBeenLastCalledWith({ title: 'Refused', description: 'Name taken', variant: 'destructive' });
    fireEvent.click(screen.getByRole('button', { name: 'Break' }));
    expect(screen.getByRole('alert')).toHaveTextContent('Could not save');
    fireEvent.click(screen.getByRole('button', { name: 'Go' }));
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    spy.mockRestore();
  });
});
