import type { ComponentPropsWithRef } from 'react';
import { useControlProps } from './control-props';

export type InputProps = ComponentPropsWithRef<'input'>;

export function Input(props: InputProps) {
  const control = useControlProps(props);
  return <input {...props} {...control} />;
}
