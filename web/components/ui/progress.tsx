import type { ComponentProps } from 'react';
import { Progress as ProgressPrimitive } from 'radix-ui';
import { cn } from '../../lib/cn';

interface ProgressProps extends ComponentProps<typeof ProgressPrimitive.Root> {
  /** 0–100; null shows an indeterminate bar. */
  value: number | null;
}

export function Progress({ className, value, ...props }: ProgressProps) {
  const clamped = value === null ? null : Math.min(100, Math.max(0, value));
  return (
    <ProgressPrimitive.Root
      value={clamped}
      className={cn('relative h-2 w-full overflow-hidden rounded-full bg-muted', className)}
      {...props}
    >
      <ProgressPrimitive.Indicator
        className="h-full bg-primary transition-[width] duration-200 ease-out"
        style={{ width: clamped === null ? '40%' : `${String(clamped)}%` }}
      />
    </ProgressPrimitive.Root>
  );
}
