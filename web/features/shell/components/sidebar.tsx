import { Link, useLocation } from 'react-router';
import {
  BookOpen,
  CircleUser,
  ClipboardCheck,
  FileSpreadsheet,
  FileText,
  ListTodo,
  LoaderCircle,
  LogOut,
  MessageSquare,
  RotateCcwClock,
  Settings,
  ShieldCheck,
  X,
} from 'lucide-react';
import { DEFAULT_BRAND_NAME } from '../../../../common/constants';
import { isAdminLevel } from '../../../../common/roles';
import type { UserView } from '../../../../common/schemas/auth';
import type { OrganizationStats, OrganizationView } from '../../../../common/schemas/organizations';
import { toastError } from '../../../components/ui/use-toast';
import { Button } from '../../../components/ui/button';
import { paths, TASKS_MODE_STATE } from '../../../paths';
import { useLogout } from '../../../app/me/logout';
import { useCan } from '../../../app/me/use-can';
import { WorkspacePicker } from '../../../app/workspace/workspace-picker';
import { activeNavItem } from '../nav-state';
import { useReviewQueue } from '../api/get-review-queue';
import { reviewBadge } from '../review-badge';
import { NavItem, navItemClass } from './nav-item';
import { QuickStats } from './quick-stats';
import { UploadSection } from '../../documents/upload-section';
import { UserSummary } from './user-summary';

interface SidebarProps {
  organization: OrganizationView;
  stats: OrganizationStats | undefined;
  user: UserView;
  /** Set while the sidebar is the phone drawer: shows its close button. */
  onClose?: () => void;
}

/** The count of questions waiting for review on a nav item; a screen reader hears the sentence instead. */
function ReviewBadge({ text, label }: { text: string; label: string }) {
  return (
    <span
      title={label}
      className="ml-auto rounded-full bg-teal-100 px-1.5 text-xs font-semibold text-teal-800 tabular-nums"
    >
      <span aria-hidden>{text}</span>
      <span className="sr-only">, {label}</span>
    </span>
  );
}

/** PRODUCT §2 "Sidebar". Navigation changes the mode through the URL, so Back and reloads keep it. */
export function Sidebar({ organization, stats, user, onClose }: SidebarProps) {
  const location = useLocation();
  // The drawer (phone) has a Pending Tasks item: the Context & Tasks panel that leads there is not shown.
  const active = activeNavItem(location, { tasksItem: Boolean(onClose) });
  const canUpload = useCan('documents:upload');
  // Questions are assigned to those who may answer them.
  const canAnswer = useCan('assessments:run');
  // Reviewers see how many answers wait for them; the list shows each assessment's questions in review.
  const canApprove = useCan('assessments:approve');
  const badge = reviewBadge(useReviewQueue({ enabled: canApprove }).data);
  // PRODUCT §4 names this rule by role ("admin-level"), so it is the one role check the UI makes.
  const adminLevel = isAdminLevel(user.role);
  const logoutMutation = useLogout();
  const brandName = organization.brandName?.trim() || DEFAULT_BRAND_NAME;

  const handleLogout = () => {
    logoutMutation.mutate(undefined, {
      // A full load, like sign-in, so nothing of this session survives in memory.
      onSuccess: () => {
        window.location.assign(paths.login);
      },
      onError: (error) => {
        toastError(error, 'Logout failed', 'Logout failed');
      },
    });
  };

  return (
    <aside className="flex h-full w-64 shrink-0 flex-col border-r bg-surface">
      <div className="flex items-start gap-1 px-4 pt-4 pb-3">
        <Link
          to={paths.dashboard}
          className="flex min-w-0 flex-1 items-center gap-2.5 rounded-md p-1 outline-none focus-visible:ring-2 focus-visible:ring-ring"
        >
          <span className="flex size-8 shrink-0 items-center justify-center rounded-lg bg-primary text-primary-foreground">
            <ShieldCheck className="size-4.5" aria-hidden />
          </span>
          <span className="min-w-0">
            <span className="block truncate text-sm font-semibold">{brandName}</span>
            <span className="block truncate text-xs text-muted-foreground">{organization.name}</span>
          </span>
        </Link>
        {onClose && (
          <Button
            variant="ghost"
            size="icon"
            className="lg:hidden"
            aria-label="Close menu"
            data-drawer-initial-focus
            onClick={onClose}
          >
            <X aria-hidden />
          </Button>
        )}
      </div>

      <div className="flex min-h-0 flex-1 flex-col gap-5 overflow-y-auto px-3 pb-4">
        <div className="px-1">
          <WorkspacePicker />
        </div>

        <nav aria-label="Main" className="grid gap-0.5">
          <NavItem to={paths.dashboard} label="Ask Questions" icon={MessageSquare} active={active === 'ask'} />
          <NavItem to={paths.library} label="Answer Library" icon={BookOpen} active={active === 'library'} />
          {onClose && (
            <NavItem
              to={paths.dashboard}
              state={TASKS_MODE_STATE}
              label="Pending Tasks"
              icon={ClipboardCheck}
              active={active === 'tasks'}
            />
          )}
          <NavItem to={paths.documents} label="Documents" icon={FileText} active={active === 'documents'} />
          {/* Not in the specification's navigation, which had no working assessments screen to reach. */}
          <NavItem
            to={paths.assessments}
            label="Bulk Assessments"
            icon={FileSpreadsheet}
            active={active === 'assessments'}
            badge={badge && <ReviewBadge {...badge} />}
          />
          {canAnswer && (
            <NavItem to={paths.myQuestions} label="My questions" icon={ListTodo} active={active === 'myQuestions'} />
          )}
          {adminLevel && (
            <NavItem
              to={paths.chatHistory}
              label="Chat History"
              icon={RotateCcwClock}
              active={active === 'chatHistory'}
            />
          )}
        </nav>

        {canUpload && <UploadSection />}
        <QuickStats stats={stats} />
      </div>

      <div className="grid gap-0.5 border-t px-3 py-3">
        <UserSummary user={user} />
        <nav aria-label="Account" className="grid gap-0.5">
          <NavItem to={paths.account} label="Account" icon={CircleUser} active={active === 'account'} />
          {adminLevel && (
            <NavItem
              to={paths.adminSettings}
              label="Workspace Settings"
              icon={Settings}
              active={active === 'adminSettings'}
            />
          )}
          <button
            type="button"
            className={navItemClass(false)}
            onClick={handleLogout}
            disabled={logoutMutation.isPending || logoutMutation.isSuccess}
          >
            {logoutMutation.isPending ? <LoaderCircle className="animate-spin" aria-hidden /> : <LogOut aria-hidden />}
            Logout
          </button>
        </nav>
      </div>
    </aside>
  );
}
