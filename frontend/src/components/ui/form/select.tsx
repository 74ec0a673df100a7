import type { ComponentPropsWithRef } from 'react';
import { useControlProps } from './control-props';

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

export function Select({ options, placeholder, children, ...props }: SelectProps) {
  const control = useControlProps(props);
  return (
    <select {...props} {...control}>
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
