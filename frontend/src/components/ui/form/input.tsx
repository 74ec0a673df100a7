import type { ComponentPropsWithRef } from 'react';
import { joinIds, useFieldControl } from './field-context';
import { controlClass } from './styles';

export type InputProps = ComponentPropsWithRef<'input'>;

export function Input({ className, id, required, 'aria-describedby': describedBy, ...props }: InputProps) {
  const field = useFieldControl();
  return (
    <input
      {...props}
      id={id ?? field?.id}
      required={required ?? field?.required}
      aria-invalid={props['aria-invalid'] ?? field?.['aria-invalid']}
      aria-describedby={joinIds(field?.['aria-describedby'], describedBy)}
      className={className ? `${controlClass} ${className}` : controlClass}
    />
  );
}
