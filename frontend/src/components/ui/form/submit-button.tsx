import type { ReactNode } from 'react';

export interface SubmitButtonProps {
  /** A request is running: the button is disabled and reads `pendingLabel`. */
  pending: boolean;
  pendingLabel: string;
  children: ReactNode;
  /** Disabled for another reason than a running request (the form is not ready yet). */
  disabled?: boolean;
  /** Extra classes, such as the button's width. */
  className?: string;
}

const submitClass =
  'rounded-lg bg-brand-700 px-5 py-3 font-semibold text-white hover:bg-brand-800 disabled:cursor-not-allowed disabled:opacity-70';

/** The main button of a form: disabled, with `pendingLabel` as its text, while the form's request runs. */
export function SubmitButton({ pending, pendingLabel, children, disabled = false, className }: SubmitButtonProps) {
  return (
    <button type="submit" disabled={pending || disabled} className={className ? `${submitClass} ${className}` : submitClass}>
      {pending ? pendingLabel : children}
    </button>
  );
}
