import type { ComponentProps } from 'react';
import { cva, type VariantProps } from 'class-variance-authority';
import { cn } from '../../lib/cn';

const alertVariants = cva(
  'relative grid w-full grid-cols-[auto_1fr] items-start gap-x-3 gap-y-0.5 rounded-lg border px-4 py-3 text-sm [&>svg]:mt-0.5 [&>svg]:size-4 [&:not(:has(>svg))]:grid-cols-1',
  {
    variants: {
      variant: {
        default: 'border-border bg-background text-foreground',
        info: 'border-indigo-200 bg-accent text-accent-foreground',
        destructive: 'border-red-200 bg-red-50 text-red-800',
      },
    },
    defaultVariants: { variant: 'default' },
  },
);

export function Alert({
  className,
  variant,
  role,
  ...props
}: ComponentProps<'div'> & VariantProps<typeof alertVariants>) {
  // Only errors interrupt a screen reader; informational notices are read in turn.
  return (
    <div
      role={role ?? (variant === 'destructive' ? 'alert' : 'status')}
      className={cn(alertVariants({ variant }), className)}
      {...props}
    />
  );
}

export function AlertTitle({ className, ...props }: ComponentProps<'div'>) {
  return <div className={cn('col-start-2 font-medium [div:not(:has(>svg))>&]:col-start-1', className)} {...props} />;
}

export function AlertDescription({ className, ...props }: ComponentProps<'div'>) {
  return <div className={cn('col-start-2 text-sm [div:not(:has(>svg))>&]:col-start-1', className)} {...props} />;
}
