import type { Ref } from 'react';
import { Menu, ShieldCheck } from 'lucide-react';
import { Button } from '../../../components/ui/button';

interface TopBarProps {
  brandName: string;
  menuOpen: boolean;
  /** The id of the navigation drawer the Menu button opens. */
  drawerId: string;
  onOpenMenu: () => void;
  menuButtonRef: Ref<HTMLButtonElement>;
}

/** Under the `lg` breakpoint the sidebar is a drawer: this bar carries its Menu button and the brand. */
export function TopBar({ brandName, menuOpen, drawerId, onOpenMenu, menuButtonRef }: TopBarProps) {
  return (
    <header className="flex h-14 shrink-0 items-center gap-2 border-b bg-surface px-3 lg:hidden">
      <Button
        ref={menuButtonRef}
        variant="ghost"
        className="px-2.5"
        aria-expanded={menuOpen}
        aria-controls={drawerId}
        onClick={onOpenMenu}
      >
        <Menu aria-hidden />
        Menu
      </Button>
      <span className="flex min-w-0 items-center gap-2">
        <span className="flex size-7 shrink-0 items-center justify-center rounded-md bg-primary text-primary-foreground">
          <ShieldCheck className="size-4" aria-hidden />
        </span>
        <span className="truncate text-sm font-semibold">{brandName}</span>
      </span>
    </header>
  );
}
