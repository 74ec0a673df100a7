import { fireEvent, render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { Field, Input, PasswordInput, Select, Textarea } from './index';

describe('Field', () => {
  it('labels the control and leaves it valid without an error', () => {
    render(
      <Field label="Email" required>
        <Input name="email" type="email" />
      </Field>,
    );
    const input = screen.getByLabelText(/Email/);
    expect(input).toBeRequired();
    expect(input).not.toHaveAttribute('aria-invalid');
    expect(input).not.toHaveAttribute('aria-describedby');
  });

  it('marks the control invalid and describes it with the error and the hint', () => {
    render(
      <Field label="Username" hint="3 to 30 characters" error="Username is required">
        <Input name="username" />
      </Field>,
    );
    const input = screen.getByLabelText('Username');
    expect(input).toHaveAttribute('aria-invalid', 'true');
    expect(input).toHaveAccessibleDescription('3 to 30 characters Username is required');
    expect(input).toHaveAccessibleName('Username');
  });

  it('wires textarea and select the same way', () => {
    render(
      <>
        <Field label="Description" error="Too short">
          <Textarea name="description" />
        </Field>
        <Field label="Category">
          <Select name="category" placeholder="Choose one" options={[{ value: 'virus', label: 'Virus removal' }]} />
        </Field>
      </>,
    );
    expect(screen.getByLabelText('Description')).toHaveAccessibleDescription('Too short');
    const select = screen.getByLabelText('Category');
    expect(select).toHaveValue('');
    fireEvent.change(select, { target: { value: 'virus' } });
    expect(select).toHaveValue('virus');
    expect(screen.getByRole('option', { name: 'Virus removal' })).toBeInTheDocument();
  });

  it("lets a control's own props win, adds its describedby ids to the field's and keeps its classes", () => {
    render(
      <>
        <Field label="Code" hint="Six digits" required>
          <Input id="own-id" required={false} aria-invalid aria-describedby="extra" className="font-mono" />
        </Field>
        <p id="extra">From the page</p>
      </>,
    );
    const input = screen.getByRole('textbox');
    expect(input.id).toBe('own-id');
    expect(input).not.toBeRequired();
    expect(input).toHaveAttribute('aria-invalid', 'true');
    expect(input).toHaveClass('rounded-lg', 'font-mono');
    expect(input.getAttribute('aria-describedby')).toMatch(/-hint extra$/);
  });

  it('gives each field its own id', () => {
    render(
      <>
        <Field label="First">
          <Input />
        </Field>
        <Field label="Second">
          <Input />
        </Field>
      </>,
    );
    expect(screen.getByLabelText('First').id).not.toBe(screen.getByLabelText('Second').id);
  });
});

describe('PasswordInput', () => {
  it('hides the password until the toggle is pressed', () => {
    render(
      <Field label="Password" error="Password is required">
        <PasswordInput name="password" />
      </Field>,
    );
    const input = screen.getByLabelText('Password');
    expect(input).toHaveAttribute('type', 'password');
    expect(input).toHaveAccessibleDescription('Password is required');
    const toggle = screen.getByRole('button', { name: 'Show password' });
    expect(toggle).toHaveAttribute('aria-pressed', 'false');
    fireEvent.click(toggle);
    expect(input).toHaveAttribute('type', 'text');
    expect(toggle).toHaveAttribute('aria-pressed', 'true');
  });
});
