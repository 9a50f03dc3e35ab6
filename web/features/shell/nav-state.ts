import type { Location } from 'react-router';
import { paths, workspaceModeOf } from '../../paths';

/** The sidebar's navigation items, one key each. */
export type NavKey =
  | 'ask'
  | 'tasks'
  | 'library'
  | 'documents'
  | 'assessments'
  | 'myQuestions'
  | 'chatHistory'
  | 'account'
  | 'adminSettings';

// Screens that belong to a sidebar item without sitting under its path: Import Q&A is part of the Answer Library.
const SECTIONS: ReadonlyArray<{ key: NavKey; prefixes: readonly string[] }> = [
  { key: 'library', prefixes: [paths.import] },
  { key: 'documents', prefixes: [paths.documents] },
  { key: 'assessments', prefixes: [paths.assessments] },
  { key: 'myQuestions', prefixes: [paths.myQuestions] },
  { key: 'chatHistory', prefixes: [paths.chatHistory] },
  { key: 'account', prefixes: [paths.account] },
  { key: 'adminSettings', prefixes: [paths.adminSettings] },
];

function isUnder(pathname: string, prefix: string): boolean {
  return pathname === prefix || pathname.startsWith(`${prefix}/`);
}

/**
 * The sidebar item to mark as current for a location, so every screen has one: the main workspace page's modes map
 * to Ask or Library, /import to the Answer Library. Tasks mode is its own item where the sidebar has one (the phone
 * drawer, as the Context & Tasks panel that leads there is not shown); elsewhere it keeps the item of the page it was
 * opened from.
 */
export function activeNavItem(
  location: Pick<Location, 'pathname' | 'state'>,
  { tasksItem = false }: { tasksItem?: boolean } = {},
): NavKey | null {
  const pathname = location.pathname.replace(/\/+$/, '') || paths.home;
  const mode = workspaceModeOf(location);
  if (mode === 'ask' || mode === 'library') return mode;
  if (mode === 'tasks') return tasksItem ? 'tasks' : pathname === paths.library ? 'library' : 'ask';
  return SECTIONS.find(({ prefixes }) => prefixes.some((prefix) => isUnder(pathname, prefix)))?.key ?? null;
}

/** Where Tab (or Shift+Tab) moves focus among `count` focusable elements of a focus trap, wrapping at both ends. */
export function nextTrapIndex(current: number, count: number, backwards: boolean): number {
  if (count <= 0) return -1;
  // Focus outside the trap's elements (-1) enters at the end Tab is heading to.
  if (current < 0) return backwards ? count - 1 : 0;
  return (current + (backwards ? -1 : 1) + count) % count;
}
