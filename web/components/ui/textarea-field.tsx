import type { ComponentProps } from 'react';
import { Field, type FieldProps } from './field';
import { Textarea } from './textarea';

type TextareaFieldProps = ComponentProps<'textarea'> & Omit<FieldProps, 'children'>;

/** A labelled textarea with its hint and validation message wired up for assistive technology. */
export function TextareaField({ label, error, hint, id, className, ...props }: TextareaFieldProps) {
  return (
    <Field label={label} error={error} hint={hint} id={id} className={className}>
      {(control) => <Textarea {...control} {...props} />}
    </Field>
  );
}
