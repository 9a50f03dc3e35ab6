import type { ComponentProps } from 'react';
import { LoaderCircle } from 'lucide-react';
import { cn } from '../../lib/cn';

interface SpinnerProps extends ComponentProps<'svg'> {
  /** Read by screen readers; the icon itself is decorative. */
  label?: string;
}

export function Spinner({ className, label = 'Loading', ...props }: SpinnerProps) {
  return (
    <LoaderCircle
      role="status"
      aria-label={label}
      className={cn('size-5 animate-spin text-primary', className)}
      {...props}
    />
  );
}

/** Covers the viewport while a screen's essential data loads. */
export function FullScreenSpinner({ label = 'Loading' }: { label?: string }) {
  return (
    <div className="flex h-full min-h-screen w-full items-center justify-center bg-surface">
      <Spinner className="size-8" label={label} />
    </div>
  );
}
