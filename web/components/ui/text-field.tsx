import type { ComponentProps } from 'react';
import { Field, type FieldProps } from './field';
import { Input } from './input';

type TextFieldProps = ComponentProps<'input'> & Omit<FieldProps, 'children'>;

/** A labelled input with its hint and validation message wired up for assistive technology. */
export function TextField({ label, error, hint, id, className, ...props }: TextFieldProps) {
  return (
    <Field label={label} error={error} hint={hint} id={id} className={className}>
      {(control) => <Input {...control} {...props} />}
    </Field>
  );
}
