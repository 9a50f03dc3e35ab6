import type { Location } from 'react-router';

/** Every route of PRODUCT §2, so links and redirects never spell a path by hand. */
export const paths = {
  home: '/',
  login: '/login',
  resetPassword: '/reset-password',
  confirmEmail: '/confirm-email',
  dashboard: '/dashboard',
  /** A chat reopened on the Ask screen (PRODUCT §7): the URL names its session. */
  chat: (sessionId: string) => `/dashboard?session=${encodeURIComponent(sessionId)}`,
  library: '/library',
  import: '/import',
  documents: '/documents',
  assessments: '/assessments',
  assessment: (batchId: string) => `/assessments/${encodeURIComponent(batchId)}`,
  myQuestions: '/my-questions',
  chatHistory: '/chat-history',
  account: '/account',
  adminSettings: '/admin-settings',
} as const;

/** PRODUCT §2: the main workspace page shows one of three modes. */
export type WorkspaceMode = 'ask' | 'library' | 'tasks';

/** Router state that enters tasks mode; carried in history so Back returns to the previous mode. */
export const TASKS_MODE_STATE = { mode: 'tasks' } as const;

function hasTasksState(state: unknown): boolean {
  return typeof state === 'object' && state !== null && 'mode' in state && state.mode === 'tasks';
}

/**
 * The mode of the main workspace page: /library is library, / and /dashboard are ask, and either becomes tasks
 * through the side panel's View All link. Null off the main workspace page.
 */
export function workspaceModeOf(location: Pick<Location, 'pathname' | 'state'>): WorkspaceMode | null {
  const pathname = location.pathname.replace(/\/+$/, '') || paths.home;
  const onMainPage = pathname === paths.home || pathname === paths.dashboard || pathname === paths.library;
  if (!onMainPage) return null;
  if (hasTasksState(location.state)) return 'tasks';
  return pathname === paths.library ? 'library' : 'ask';
}
