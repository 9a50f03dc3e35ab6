import type { ComponentProps, ReactNode } from 'react';
import { cn } from '../../lib/cn';

interface EmptyStateProps extends Omit<ComponentProps<'div'>, 'title'> {
  icon: ReactNode;
  title: string;
  description?: ReactNode;
  /** Buttons that lead out of the empty state. */
  actions?: ReactNode;
}

/** A dashed panel that says why a list is empty and what to do about it. */
export function EmptyState({ icon, title, description, actions, className, ...props }: EmptyStateProps) {
  return (
    <div
      className={cn(
        'flex flex-col items-center justify-center rounded-xl border border-dashed bg-surface px-6 py-16 text-center',
        className,
      )}
      {...props}
    >
      <span className="flex size-11 items-center justify-center rounded-full bg-accent text-primary [&_svg]:size-5">
        {icon}
      </span>
      <h2 className="mt-4 text-base font-semibold">{title}</h2>
      {description && <p className="mt-1 max-w-sm text-sm text-muted-foreground">{description}</p>}
      {actions && <div className="mt-5 flex flex-wrap items-center justify-center gap-2">{actions}</div>}
    </div>
  );
}
