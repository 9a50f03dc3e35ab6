import { useEffect, useRef, type ReactNode, type RefObject } from 'react';
import { cn } from '../../../lib/cn';
import { nextTrapIndex } from '../nav-state';

const FOCUSABLE =
  'a[href], button:not([disabled]), input:not([disabled]), select:not([disabled]), textarea:not([disabled]), [tabindex]:not([tabindex="-1"])';

function tabbables(root: HTMLElement): HTMLElement[] {
  return Array.from(root.querySelectorAll<HTMLElement>(FOCUSABLE)).filter(
    (element) => element.getClientRects().length > 0 && getComputedStyle(element).visibility !== 'hidden',
  );
}

interface NavDrawerProps {
  id: string;
  /** True under the `lg` breakpoint, where the navigation is a drawer; above it, it is a plain column. */
  drawerMode: boolean;
  open: boolean;
  onClose: () => void;
  /** Gets focus back when the drawer closes (the Menu button). */
  returnFocusTo: RefObject<HTMLElement | null>;
  children: ReactNode;
}

/**
 * The sidebar's frame. On wide screens a static column; on narrow ones a modal drawer that traps focus, closes on
 * Escape or a click on the backdrop, and hands focus back to the Menu button.
 *
 * It is moved off-screen with `left` rather than a transform: the upload widget's modal is rendered inside the
 * sidebar and is `position: fixed`, which a transformed ancestor would pin to the drawer instead of the viewport.
 */
export function NavDrawer({ id, drawerMode, open, onClose, returnFocusTo, children }: NavDrawerProps) {
  const ref = useRef<HTMLDivElement>(null);
  const active = drawerMode && open;

  useEffect(() => {
    const drawer = ref.current;
    if (!active || !drawer) return;
    const returnTarget = returnFocusTo.current;
    (drawer.querySelector<HTMLElement>('[data-drawer-initial-focus]') ?? tabbables(drawer)[0])?.focus();
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.defaultPrevented) return;
      // Dialogs opened from the drawer (the upload widget, the workspace picker) handle their own keys.
      const target = event.target instanceof Element ? event.target : null;
      const dialog = target?.closest('[role="dialog"], [role="alertdialog"]');
      if (dialog && dialog !== drawer) return;
      if (event.key === 'Escape') {
        event.preventDefault();
        onClose();
      } else if (event.key === 'Tab') {
        const items = tabbables(drawer);
        const current = document.activeElement instanceof HTMLElement ? items.indexOf(document.activeElement) : -1;
        const next = items[nextTrapIndex(current, items.length, event.shiftKey)];
        event.preventDefault();
        next?.focus();
      }
    };
    document.addEventListener('keydown', onKeyDown);
    return () => {
      document.removeEventListener('keydown', onKeyDown);
      const focused = document.activeElement;
      if (!focused || focused === document.body || drawer.contains(focused)) returnTarget?.focus();
    };
  }, [active, onClose, returnFocusTo]);

  return (
    <>
      {active && (
        <div aria-hidden className="fixed inset-0 z-40 bg-slate-900/40 animate-fade-in lg:hidden" onClick={onClose} />
      )}
      <div
        ref={ref}
        id={id}
        role={active ? 'dialog' : undefined}
        aria-modal={active || undefined}
        aria-label={active ? 'Menu' : undefined}
        // A link followed from the drawer closes it, even one to the page already shown (the location may not change).
        onClick={(event) => {
          if (active && event.target instanceof Element && event.target.closest('a[href]')) onClose();
        }}
        className={cn(
          'h-full shrink-0',
          'max-lg:fixed max-lg:inset-y-0 max-lg:z-50 max-lg:max-w-[85vw] max-lg:duration-200 motion-reduce:transition-none',
          // Visibility switches at once on opening (so focus can move in) and only after the slide on closing.
          open
            ? 'max-lg:left-0 max-lg:shadow-xl max-lg:transition-[left]'
            : 'max-lg:invisible max-lg:-left-full max-lg:transition-[left,visibility]',
        )}
      >
        {children}
      </div>
    </>
  );
}
