import { describe, expect, it } from 'vitest';
import { TASKS_MODE_STATE, paths, workspaceModeOf } from './paths';

const at = (pathname: string, state: unknown = null) => workspaceModeOf({ pathname, state });

describe('workspaceModeOf', () => {
  it('is ask on / and /dashboard, library on /library', () => {
    expect(at('/')).toBe('ask');
    expect(at('/dashboard')).toBe('ask');
    expect(at('/library')).toBe('library');
  });

  it('ignores trailing slashes', () => {
    expect(at('/library/')).toBe('library');
    expect(at('/dashboard//')).toBe('ask');
  });

  it('is tasks on any main page path that carries the tasks state', () => {
    expect(at('/', TASKS_MODE_STATE)).toBe('tasks');
    expect(at('/library', TASKS_MODE_STATE)).toBe('tasks');
    expect(at('/', { mode: 'ask' })).toBe('ask');
    expect(at('/', 'tasks')).toBe('ask');
  });

  it('is null off the main workspace page', () => {
    expect(at('/documents')).toBeNull();
    expect(at('/documents', TASKS_MODE_STATE)).toBeNull();
    expect(at('/library/extra')).toBeNull();
  });
});

describe('paths.assessment', () => {
  it('encodes the id so it stays one path segment', () => {
    expect(paths.assessment('abc')).toBe('/assessments/abc');
    expect(paths.assessment('a/b?c')).toBe('/assessments/a%2Fb%3Fc');
  });
});
