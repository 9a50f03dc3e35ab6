import { lazy, Suspense, useState } from 'react';
import { LayoutDashboard } from 'lucide-react';
import { Button } from '../../components/ui/button';
import { useMe } from '../../app/me/get-me';
import { allowedSections } from './section-access';

// The dialog brings the charts library; it loads the first time someone opens it, not with the page.
const AdminDashboardDialog = lazy(() =>
  import('./admin-dashboard-dialog').then((m) => ({ default: m.AdminDashboardDialog })),
);

/**
 * Opens the Admin Dashboard modal; shown to whoever may open one of its sections: admins, and managers for the
 * Accuracy part of Analytics.
 */
export function AdminDashboardButton() {
  const { data } = useMe();
  const canOpen = allowedSections(data?.permissions ?? []).length > 0;
  const [open, setOpen] = useState(false);
  const [requested, setRequested] = useState(false);
  if (!canOpen) return null;
  return (
    <>
      <Button
        variant="outline"
        onClick={() => {
          setRequested(true);
          setOpen(true);
        }}
      >
        <LayoutDashboard aria-hidden />
        Admin Dashboard
      </Button>
      {requested && (
        <Suspense fallback={null}>
          <AdminDashboardDialog open={open} onOpenChange={setOpen} />
        </Suspense>
      )}
    </>
  );
}
