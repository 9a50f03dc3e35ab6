import { lazy, Suspense, useState } from 'react';
import { LayoutDashboard } from 'lucide-react';
import { Button } from '../../components/ui/button';
import { useCan } from '../../app/me/use-can';

// The dialog brings the charts library; it loads the first time someone opens it, not with the page.
const AdminDashboardDialog = lazy(() =>
  import('./admin-dashboard-dialog').then((m) => ({ default: m.AdminDashboardDialog })),
);

/** Opens the Admin Dashboard modal; shown only to those the server lets manage users (admins). */
export function AdminDashboardButton() {
  const canOpen = useCan('users:manage');
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
