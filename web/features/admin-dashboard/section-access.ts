import type { Action } from '../../../common/policies';

/**
 * The Admin Dashboard's sections, in order, with the actions that open each (any one will do): the ones the server
 * checks for the section's data. Kept apart from the dialog so the button can decide without loading the dialog.
 */
export const SECTION_ACCESS = {
  users: ['users:manage'],
  organization: ['organization:update'],
  sso: ['sso:manage'],
  brand: ['organization:update'],
  // Usage is the organization's (admins); Accuracy is the workspace's, which managers read too.
  analytics: ['analytics:read', 'accuracy:read'],
  audit: ['audit:read'],
} as const satisfies Record<string, readonly Action[]>;

export type SectionId = keyof typeof SECTION_ACCESS;

/** The sections `permissions` open, in the dashboard's order. */
export function allowedSections(permissions: readonly string[]): SectionId[] {
  return (Object.keys(SECTION_ACCESS) as SectionId[]).filter((id) =>
    SECTION_ACCESS[id].some((action: Action) => permissions.includes(action)),
  );
}
