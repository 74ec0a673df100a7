export { Field, type FieldProps } from './field';
export { useFieldControl } from './field-context';
export { Input, type InputProps } from './input';
export { PasswordInput, type PasswordInputProps } from './password-input';
export { Select, type SelectOption, type SelectProps } from './select';
export { controlClass } from './styles';
export { SubmitButton, type SubmitButtonProps } from './submit-button';
export { Textarea, type TextareaProps } from './textarea';
