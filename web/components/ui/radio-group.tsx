import type { ComponentProps } from 'react';
import { RadioGroup as RadioGroupPrimitive } from 'radix-ui';
import { cn } from '../../lib/cn';

export function RadioGroup({ className, ...props }: ComponentProps<typeof RadioGroupPrimitive.Root>) {
  return <RadioGroupPrimitive.Root className={cn('grid gap-2', className)} {...props} />;
}

/**
 * A selectable card: the whole box is the radio, so a long label and its description are one click target.
 */
export function RadioCard({ className, children, ...props }: ComponentProps<typeof RadioGroupPrimitive.Item>) {
  return (
    <RadioGroupPrimitive.Item
      className={cn(
        'flex items-start gap-3 rounded-lg border bg-background p-3 text-left text-sm transition-colors outline-none',
        'hover:bg-surface focus-visible:ring-2 focus-visible:ring-ring disabled:cursor-not-allowed disabled:opacity-50',
        'data-[state=checked]:border-primary data-[state=checked]:bg-accent data-[state=checked]:ring-1 data-[state=checked]:ring-primary',
        // Muted hint text is too faint on the hover and checked tints (WCAG AA contrast): darker on a card.
        '[&_.text-muted-foreground]:text-slate-600 [&[data-state=checked]_.text-muted-foreground]:text-slate-700',
        className,
      )}
      {...props}
    >
      {children}
    </RadioGroupPrimitive.Item>
  );
}
