import type { ReactNode } from 'react';

interface SectionHeaderProps {
  title: string;
  description: string;
  /** Buttons on the right, e.g. Add User. */
  actions?: ReactNode;
}

/** The title line of one Admin Dashboard section. */
export function SectionHeader({ title, description, actions }: SectionHeaderProps) {
  return (
    <div className="flex flex-wrap items-start justify-between gap-3">
      <div className="min-w-0">
        <h3 className="text-lg font-semibold tracking-tight">{title}</h3>
        <p className="mt-1 text-sm text-muted-foreground">{description}</p>
      </div>
      {actions && <div className="flex shrink-0 items-center gap-2">{actions}</div>}
    </div>
  );
}
