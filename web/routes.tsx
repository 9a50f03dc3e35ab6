import { lazy, Suspense, type ReactNode } from 'react';
import { createBrowserRouter, Outlet, type RouteObject } from 'react-router';
import { FullScreenSpinner } from './components/ui/spinner';
import { AuthGuard } from './features/auth/components/auth-guard';
import { paths } from './paths';

// Pages keep named exports; each lazy() call still splits its page into its own chunk.
const AppShell = lazy(() => import('./features/shell/app-shell').then((m) => ({ default: m.AppShell })));
const LoginPage = lazy(() => import('./features/auth/login-page').then((m) => ({ default: m.LoginPage })));
const ResetPasswordPage = lazy(() =>
  import('./features/auth/reset-password-page').then((m) => ({ default: m.ResetPasswordPage })),
);
const ConfirmEmailPage = lazy(() =>
  import('./features/auth/confirm-email-page').then((m) => ({ default: m.ConfirmEmailPage })),
);
const MainWorkspaceLayout = lazy(() =>
  import('./features/dashboard/main-workspace-layout').then((m) => ({ default: m.MainWorkspaceLayout })),
);
const AskView = lazy(() => import('./features/ask/ask-view').then((m) => ({ default: m.AskView })));
const LibraryPage = lazy(() => import('./features/library/library-page').then((m) => ({ default: m.LibraryPage })));
const ImportPage = lazy(() => import('./features/import/import-page').then((m) => ({ default: m.ImportPage })));
const DocumentsPage = lazy(() =>
  import('./features/documents/documents-page').then((m) => ({ default: m.DocumentsPage })),
);
const ChatHistoryPage = lazy(() =>
  import('./features/chat-history/chat-history-page').then((m) => ({ default: m.ChatHistoryPage })),
);
const AccountPage = lazy(() => import('./features/account/account-page').then((m) => ({ default: m.AccountPage })));
const AdminSettingsPage = lazy(() =>
  import('./features/admin-settings/admin-settings-page').then((m) => ({ default: m.AdminSettingsPage })),
);
const AssessmentsPage = lazy(() =>
  import('./features/assessments/assessments-page').then((m) => ({ default: m.AssessmentsPage })),
);
const AssessmentDetailPage = lazy(() =>
  import('./features/assessments/assessment-detail-page').then((m) => ({ default: m.AssessmentDetailPage })),
);
const MyQuestionsPage = lazy(() =>
  import('./features/my-questions/my-questions-page').then((m) => ({ default: m.MyQuestionsPage })),
);
const NotFoundPage = lazy(() =>
  import('./features/not-found/not-found-page').then((m) => ({ default: m.NotFoundPage })),
);

function PublicFrame({ children }: { children?: ReactNode }) {
  return <Suspense fallback={<FullScreenSpinner />}>{children ?? <Outlet />}</Suspense>;
}

/** PRODUCT §2 route table: /login and the 404 page are public; everything else needs a session. */
export const routes: RouteObject[] = [
  {
    element: <PublicFrame />,
    children: [
      { path: paths.login, element: <LoginPage /> },
      { path: paths.resetPassword, element: <ResetPasswordPage /> },
      { path: paths.confirmEmail, element: <ConfirmEmailPage /> },
      {
        element: (
          <AuthGuard>
            <AppShell />
          </AuthGuard>
        ),
        children: [
          {
            element: <MainWorkspaceLayout />,
            children: [
              { path: paths.home, element: <AskView /> },
              { path: paths.dashboard, element: <AskView /> },
              { path: paths.library, element: <LibraryPage /> },
            ],
          },
          { path: paths.import, element: <ImportPage /> },
          { path: paths.documents, element: <DocumentsPage /> },
          { path: paths.chatHistory, element: <ChatHistoryPage /> },
          { path: paths.account, element: <AccountPage /> },
          { path: paths.adminSettings, element: <AdminSettingsPage /> },
          { path: paths.assessments, element: <AssessmentsPage /> },
          { path: `${paths.assessments}/:batchId`, element: <AssessmentDetailPage /> },
          { path: paths.myQuestions, element: <MyQuestionsPage /> },
        ],
      },
      { path: '*', element: <NotFoundPage /> },
    ],
  },
];

export function createRouter() {
  return createBrowserRouter(routes);
}
