import type { StoredRole } from './roles';

/**
 * Every action a route can ask permission for, with the roles allowed to do it.
 * The server's `authorize()` reads this table; `/api/auth/me` sends the caller's allowed actions so the web app
 * hides what the server would refuse. Roles are cumulative: viewer ⊂ contributor ⊂ manager ⊂ admin.
 */
const VIEWER = ['viewer', 'contributor', 'manager', 'admin', 'super_admin'] as const;
const CONTRIBUTOR = ['contributor', 'manager', 'admin', 'super_admin'] as const;
const MANAGER = ['manager', 'admin', 'super_admin'] as const;
const ADMIN = ['admin', 'super_admin'] as const;

export const POLICY = {
  'organization:read': VIEWER,
  'organization:update': ADMIN,
  'stats:read': VIEWER,
  'users:read': VIEWER,
  'users:manage': ADMIN,
  'invitations:manage': ADMIN,
  'workspaces:read': VIEWER,
  'workspaces:manage': MANAGER,
  'audit:read': ADMIN,
  'analytics:read': ADMIN,
  /** What reviewers did with the machine's answers, per confidence band (the accuracy page). */
  'accuracy:read': MANAGER,
  /**
   * Switch the workspace's own calibration of the confidence on or off: the people who read the accuracy page and
   * approve the answers it is about decide whether their reviewers see the engine's figure or the recalibrated one.
   */
  'accuracy:calibrate': MANAGER,
  'sso:manage': ADMIN,
  'api_tokens:manage': ADMIN,
  'engine:read': ADMIN,
  'knowledge:read': VIEWER,
  'knowledge:create_draft': CONTRIBUTOR,
  'knowledge:approve': MANAGER,
  'knowledge:import': MANAGER,
  'knowledge:delete': MANAGER,
  'documents:read': VIEWER,
  'documents:upload': CONTRIBUTOR,
  'documents:delete': MANAGER,
  'qa:ask': CONTRIBUTOR,
  'chat_history:read': VIEWER,
  'chat_history:read_all': MANAGER,
  'assessments:read': VIEWER,
  'assessments:run': CONTRIBUTOR,
  /** Approve an answer a person wrote (a draft): until then exports leave it out. */
  'assessments:approve': MANAGER,
  /** Give questions an assignee and a due date, and the assessment its due date. */
  'assessments:assign': MANAGER,
  'assessments:delete': MANAGER,
} as const satisfies Record<string, readonly StoredRole[]>;

export type Action = keyof typeof POLICY;

export function can(role: StoredRole, action: Action): boolean {
  return (POLICY[action] as readonly StoredRole[]).includes(role);
}

export function allowedActions(role: StoredRole): Action[] {
  return (Object.keys(POLICY) as Action[]).filter((a) => can(role, a));
}
