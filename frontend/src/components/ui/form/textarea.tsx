import type { ComponentPropsWithRef } from 'react';
import { useControlProps } from './control-props';

export type TextareaProps = ComponentPropsWithRef<'textarea'>;

export function Textarea(props: TextareaProps) {
  const control = useControlProps(props);
  return <textarea rows={4} {...props} {...control} />;
}
