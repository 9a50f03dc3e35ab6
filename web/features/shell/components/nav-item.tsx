import type { ReactNode } from 'react';
import type { LucideIcon } from 'lucide-react';
import { Link } from 'react-router';
import { cn } from '../../../lib/cn';

export const navItemClass = (active: boolean) =>
  cn(
    'flex w-full items-center gap-3 rounded-md px-3 py-2 text-sm font-medium transition-colors outline-none',
    'focus-visible:ring-2 focus-visible:ring-ring [&_svg]:size-4 [&_svg]:shrink-0',
    active ? 'bg-accent text-accent-foreground' : 'text-slate-600 hover:bg-muted hover:text-foreground',
  );

interface NavItemProps {
  to: string;
  label: string;
  icon: LucideIcon;
  active: boolean;
  /** Router state the link navigates with (tasks mode lives there). */
  state?: unknown;
  className?: string;
  /** Shown after the label, such as a count of what waits there. */
  badge?: ReactNode;
}

export function NavItem({ to, label, icon: Icon, active, state, className, badge }: NavItemProps) {
  return (
    <Link
      to={to}
      state={state}
      className={cn(navItemClass(active), className)}
      aria-current={active ? 'page' : undefined}
    >
      <Icon aria-hidden />
      {label}
      {badge}
    </Link>
  );
}
