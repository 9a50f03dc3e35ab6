import { describe, expect, it } from 'vitest';
import { filterParams } from './api/library-filter';
import { LIBRARY_TABS, isLibraryTab, statusOfTab, tabFilter } from './library-tabs';

describe('library tabs', () => {
  it('ask the server for their own status, and All for none (approved and draft)', () => {
    expect(statusOfTab('all')).toBeUndefined();
    expect(statusOfTab('approved')).toBe('approved');
    expect(statusOfTab('draft')).toBe('draft');
    expect(statusOfTab('archived')).toBe('archived');
  });

  it('"Needs re-verification" asks for stale entries, not a status', () => {
    expect(tabFilter('reverify')).toEqual({ status: undefined, reverify: true });
    expect(tabFilter('draft')).toEqual({ status: 'draft', reverify: false });
    expect(filterParams({ q: '', ...tabFilter('reverify'), tag: undefined }).toString()).toBe('reverify=1');
  });

  it('accept only their own names from the URL', () => {
    for (const tab of LIBRARY_TABS) expect(isLibraryTab(tab)).toBe(true);
    expect(isLibraryTab('deleted')).toBe(false);
    expect(isLibraryTab('All')).toBe(false);
  });
});

describe('filterParams', () => {
  it('sends the trimmed search, the status and the tag', () => {
    expect(filterParams({ q: '  sso ', status: 'draft', tag: 'auth' }).toString()).toBe('q=sso&status=draft&tag=auth');
  });

  it('leaves out the empty parts so the server applies its defaults', () => {
    expect(filterParams({ q: '   ', status: undefined, tag: undefined }).toString()).toBe('');
    expect(filterParams({}).toString()).toBe('');
    expect(filterParams({ tag: 'a&b' }).toString()).toBe('tag=a%26b');
    expect(filterParams({ reverify: false, mine: false }).toString()).toBe('');
  });

  it('sends "owned by me" as mine=1', () => {
    expect(filterParams({ q: 'mfa', mine: true }).toString()).toBe('q=mfa&mine=1');
  });
});
