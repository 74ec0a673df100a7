import type { ComponentPropsWithRef } from 'react';
import { joinIds, useFieldControl } from './field-context';
import { controlClass } from './styles';

/** The props a control shares with its `Field`; the control's own values win, and the ids add up. */
export type ControlOwnProps = Pick<ComponentPropsWithRef<'input'>, 'id' | 'required' | 'className' | 'aria-invalid' | 'aria-describedby'>;

/** The id, ARIA wiring and classes of an `Input`, `Textarea` or `Select`, from its `Field` and its own props. */
export function useControlProps({ id, required, className, 'aria-invalid': invalid, 'aria-describedby': describedBy }: ControlOwnProps) {
  const field = useFieldControl();
  return {
    id: id ?? field?.id,
    required: required ?? field?.required,
    'aria-invalid': invalid ?? field?.['aria-invalid'],
    'aria-describedby': joinIds(field?.['aria-describedby'], describedBy),
    className: className ? `${controlClass} ${className}` : controlClass,
  };
}
