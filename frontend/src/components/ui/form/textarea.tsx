import type { ComponentPropsWithRef } from 'react';
import { joinIds, useFieldControl } from './field-context';
import { controlClass } from './styles';

export type TextareaProps = ComponentPropsWithRef<'textarea'>;

export function Textarea({ className, id, required, 'aria-describedby': describedBy, ...props }: TextareaProps) {
  const field = useFieldControl();
  return (
    <textarea
      rows={4}
      {...props}
      id={id ?? field?.id}
      required={required ?? field?.required}
      aria-invalid={props['aria-invalid'] ?? field?.['aria-invalid']}
      aria-describedby={joinIds(field?.['aria-describedby'], describedBy)}
      className={className ? `${controlClass} ${className}` : controlClass}
    />
  );
}
