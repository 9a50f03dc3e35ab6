import { describe, expect, it } from 'vitest';
import { TASKS_MODE_STATE } from '../../paths';
import { activeNavItem, nextTrapIndex } from './nav-state';

const at = (pathname: string, state: unknown = null) => activeNavItem({ pathname, state });

describe('activeNavItem', () => {
  it('marks Ask on the landing page and /dashboard, and Answer Library on /library', () => {
    expect(at('/')).toBe('ask');
    expect(at('/dashboard')).toBe('ask');
    expect(at('/dashboard/')).toBe('ask');
    expect(at('/library')).toBe('library');
  });

  it('keeps an item current in tasks mode: the page the tasks were opened from', () => {
    expect(at('/dashboard', TASKS_MODE_STATE)).toBe('ask');
    expect(at('/', TASKS_MODE_STATE)).toBe('ask');
    expect(at('/library', TASKS_MODE_STATE)).toBe('library');
  });

  it('marks the Pending Tasks item in tasks mode where the sidebar has one (the phone drawer)', () => {
    expect(activeNavItem({ pathname: '/dashboard', state: TASKS_MODE_STATE }, { tasksItem: true })).toBe('tasks');
    expect(activeNavItem({ pathname: '/library', state: TASKS_MODE_STATE }, { tasksItem: true })).toBe('tasks');
    expect(activeNavItem({ pathname: '/dashboard', state: null }, { tasksItem: true })).toBe('ask');
  });

  it('marks Answer Library on Import Q&A, which belongs to it', () => {
    expect(at('/import')).toBe('library');
  });

  it('marks the section of nested and plain screens', () => {
    expect(at('/assessments')).toBe('assessments');
    expect(at('/assessments/3f2a')).toBe('assessments');
    expect(at('/documents')).toBe('documents');
    expect(at('/my-questions')).toBe('myQuestions');
    expect(at('/chat-history')).toBe('chatHistory');
    expect(at('/account')).toBe('account');
    expect(at('/admin-settings')).toBe('adminSettings');
  });

  it('marks nothing on unknown paths or look-alike prefixes', () => {
    expect(at('/nowhere')).toBeNull();
    expect(at('/imports')).toBeNull();
    expect(at('/documents-old')).toBeNull();
  });
});

describe('nextTrapIndex', () => {
  it('moves forward and backward, wrapping at both ends', () => {
    expect(nextTrapIndex(0, 3, false)).toBe(1);
    expect(nextTrapIndex(2, 3, false)).toBe(0);
    expect(nextTrapIndex(0, 3, true)).toBe(2);
    expect(nextTrapIndex(1, 3, true)).toBe(0);
  });

  it('enters from outside at the end Tab is heading to, and has nowhere to go when empty', () => {
    expect(nextTrapIndex(-1, 3, false)).toBe(0);
    expect(nextTrapIndex(-1, 3, true)).toBe(2);
    expect(nextTrapIndex(0, 0, false)).toBe(-1);
  });
});
