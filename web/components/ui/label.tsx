import type { ComponentProps } from 'react';
import { Label as LabelPrimitive } from 'radix-ui';
import { cn } from '../../lib/cn';

export function Label({ className, ...props }: ComponentProps<typeof LabelPrimitive.Root>) {
  return (
    <LabelPrimitive.Root
      className={cn('text-sm leading-none font-medium text-foreground select-none', className)}
      {...props}
    />
  );
}

/** A field's validation message; give it the id the input references in aria-describedby. */
export function FieldError({ className, children, ...props }: ComponentProps<'p'>) {
  if (!children) return null;
  return (
    <p className={cn('text-xs font-medium text-destructive', className)} {...props}>
      {children}
    </p>
  );
}
