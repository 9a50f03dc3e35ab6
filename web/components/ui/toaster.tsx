import { dismissToast, useToasts } from './use-toast';
import { ToastClose, ToastDescription, ToastProvider, ToastRoot, ToastTitle, ToastViewport } from './toast';

/** PRODUCT §12: toasts stay 5000 ms. */
export const TOAST_DURATION_MS = 5000;

/** Renders the toast raised through `toast()`; mount once near the root of the app. */
export function Toaster() {
  const toasts = useToasts();
  return (
    <ToastProvider duration={TOAST_DURATION_MS} swipeDirection="right">
      {toasts.map((entry) => (
        <ToastRoot
          key={entry.id}
          variant={entry.variant}
          type={entry.variant === 'destructive' ? 'foreground' : 'background'}
          onOpenChange={(open) => {
            if (!open) dismissToast(entry.id);
          }}
        >
          <div className="grid gap-1">
            <ToastTitle>{entry.title}</ToastTitle>
            {entry.description && <ToastDescription>{entry.description}</ToastDescription>}
          </div>
          <ToastClose />
        </ToastRoot>
      ))}
      <ToastViewport />
    </ToastProvider>
  );
}
