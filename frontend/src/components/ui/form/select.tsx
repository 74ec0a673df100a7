import type { ComponentPropsWithRef } from 'react';
import { joinIds, useFieldControl } from './field-context';
import { controlClass } from './styles';

export interface SelectOption {
  value: string;
  label: string;
}

export interface SelectProps extends ComponentPropsWithRef<'select'> {
  /** Convenience for simple lists; `children` (option elements) may be used instead. */
  options?: readonly SelectOption[];
  /** An empty first option, e.g. "Select a category". */
  placeholder?: string;
}

export function Select({
  className,
  id,
  required,
  options,
  placeholder,
  children,
  'aria-describedby': describedBy,
  ...props
}: SelectProps) {
  const field = useFieldControl();
  return (
    <select
      {...props}
      id={id ?? field?.id}
      required={required ?? field?.required}
      aria-invalid={props['aria-invalid'] ?? field?.['aria-invalid']}
      aria-describedby={joinIds(field?.['aria-describedby'], describedBy)}
      className={className ? `${controlClass} ${className}` : controlClass}
    >
      {placeholder !== undefined ? <option value="">{placeholder}</option> : null}
      {options?.map((option) => (
        <option key={option.value} value={option.value}>
          {option.label}
        </option>
      ))}
      {children}
    </select>
  );
}
