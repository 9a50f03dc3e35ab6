import { can, type Action } from '../common/policies';
import type { StoredRole } from '../common/roles';
import { forbidden } from './errors';

/** What each action means in a sentence, for the 403 message. */
const LABELS: Record<Action, string> = {
  'organization:read': 'view the organization',
  'organization:update': 'change organization settings',
  'stats:read': 'view statistics',
  'users:read': 'view users',
  'users:manage': 'manage users and roles',
  'invitations:manage': 'invite users',
  'workspaces:read': 'view workspaces',
  'workspaces:manage': 'create, rename or delete workspaces',
  'audit:read': 'view the audit log',
  'analytics:read': 'view usage analytics',
  'accuracy:read': 'view how often reviewers kept the machine answers',
  'accuracy:calibrate': "switch the calibration of the confidence on this workspace's reviews",
  'sso:manage': 'change single sign-on settings',
  'api_tokens:manage': 'manage API tokens',
  'engine:read': 'see how answers are matched',
  'knowledge:read': 'view the knowledge library',
  'knowledge:create_draft': 'add entries to the knowledge library',
  'knowledge:approve': 'approve or change approved library entries',
  'knowledge:import': 'import Q&A',
  'knowledge:delete': 'delete library entries',
  'documents:read': 'view documents',
  'documents:upload': 'upload documents',
  'documents:delete': 'delete documents',
  'qa:ask': 'ask questions',
  'chat_history:read': 'view chat history',
  'chat_history:read_all': "view other users' chat history",
  'assessments:read': 'view assessments',
  'assessments:run': 'run assessments',
  'assessments:approve': 'approve answers in an assessment or mark questions not applicable',
  'assessments:assign': 'assign assessment questions or set due dates',
  'assessments:delete': 'delete assessments',
};

/** Throws 403 unless the role may perform the action. Every route calls this before its service. */
export function authorize(ctx: { role: StoredRole }, action: Action): void {
  if (!can(ctx.role, action)) {
    throw forbidden(`Your role (${ctx.role}) does not allow you to ${LABELS[action]}. Ask an admin for access.`);
  }
}
