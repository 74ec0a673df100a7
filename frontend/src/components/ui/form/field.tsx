import { useId, useMemo, type ReactNode } from 'react';
import { FieldContext, joinIds, type FieldControlProps } from './field-context';

export interface FieldProps {
  label: ReactNode;
  /** The validation message; when set the control is marked invalid and describes itself with it. */
  error?: string | undefined;
  hint?: ReactNode;
  required?: boolean;
  /** Fixes the control id (default: a generated one), e.g. so tests or labels elsewhere can target it. */
  id?: string;
  className?: string;
  children: ReactNode;
}

/**
 * A labelled form field. The control inside (`Input`, `Textarea`, `Select`, `PasswordInput`) takes its id,
 * `aria-invalid` and `aria-describedby` from here, so the label, hint and error text are always announced.
 */
export function Field({ label, error, hint, required, id, className, children }: FieldProps) {
  const generated = useId();
  const controlId = id ?? `field-${generated.replace(/:/g, '')}`;
  const hintId = hint ? `${controlId}-hint` : undefined;
  const errorId = error ? `${controlId}-error` : undefined;
  const control = useMemo<FieldControlProps>(
    () => ({
      id: controlId,
      'aria-invalid': error ? true : undefined,
      'aria-describedby': joinIds(hintId, errorId),
      required: required || undefined,
    }),
    [controlId, error, hintId, errorId, required],
  );

  return (
    <div className={className}>
      <label htmlFor={controlId} className="block text-sm font-semibold text-slate-900">
        {label}
        {required ? (
          <>
            {' '}
            <span aria-hidden="true" className="text-red-700">
              *
            </span>
          </>
        ) : null}
      </label>
      <FieldContext.Provider value={control}>{children}</FieldContext.Provider>
      {hint ? (
        <p id={hintId} className="mt-1 text-sm text-slate-600">
          {hint}
        </p>
      ) : null}
      {error ? (
        <p id={errorId} className="mt-1 text-sm text-red-700">
          {error}
        </p>
      ) : null}
    </div>
  );
}
