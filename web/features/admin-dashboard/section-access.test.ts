import { describe, expect, it } from 'vitest';
import { allowedActions } from '../../../common/policies';
import { allowedSections } from './section-access';

describe('Admin Dashboard sections by role', () => {
  it('opens every section to an admin', () => {
    expect(allowedSections(allowedActions('admin'))).toEqual([
      'users',
      'organization',
      'sso',
      'brand',
      'analytics',
      'audit',
    ]);
  });

  it('opens Analytics alone to a manager, for its Accuracy part', () => {
    expect(allowedSections(allowedActions('manager'))).toEqual(['analytics']);
  });

  it('opens nothing to a contributor or a viewer, so they get no button', () => {
    expect(allowedSections(allowedActions('contributor'))).toEqual([]);
    expect(allowedSections(allowedActions('viewer'))).toEqual([]);
  });
});
