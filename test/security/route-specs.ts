import type { Action } from '../../common/policies';
import type { TestApp } from '../helpers/app';
import { call } from '../helpers/api';
import { unique, type TestUser } from '../helpers/factories';
import { localPath, uploadObject } from '../helpers/documents';
import type { Fixture } from './fixtures';
import { questionnaireLayouts } from '../../server/db/schema';

/** One request to a route. `multipart` sends a form as a browser would; `raw` bodies are sent as given. */
export type Req = {
  url: string;
  body?: unknown;
  multipart?: { fields: Record<string, string>; file?: { name: string; bytes: string } };
  contentType?: string;
};

/**
 * What the sweep knows of a route:
 * - `access`: `public` (no session), `signed-in` (any role), or the policy action whose roles may call it;
 * - `ownsIds`: the request names resources of the tenant it is built for, so another tenant must get 404;
 * - `request`: a valid request of tenant `f` made by `as` (the roles the policy allows succeed with it);
 * - `destroys`: the request consumes its target, so the sweep runs it after every other route;
 * - `ok`: the status a permitted caller gets, when it is not simply 2xx;
 * - `endsTokens`: a successful request revokes the caller's API tokens (a password change), so the sweep runs it
 *   after every route that calls with a token.
 */
export type RouteSpec = {
  access: 'public' | 'signed-in' | Action;
  ownsIds?: boolean;
  destroys?: boolean;
  ok?: number;
  endsTokens?: boolean;
  request: (f: Fixture, as: TestUser | null, app: TestApp) => Req | Promise<Req>;
};

// Requests that create rather than name a resource carry nothing of the tenant: another tenant may run them.
const CSV = 'Question\nDo you use MFA?\n';
const form = (fields: Record<string, string>) => ({ fields, file: { name: 'review.csv', bytes: CSV } });

/** Every /api route. The sweep fails when the app has a route this table does not describe, or the reverse. */
export const ROUTE_SPECS: Record<string, RouteSpec> = {
  // health and docs
  'GET /api/health': { access: 'public', request: () => ({ url: '/api/health' }) },
  'GET /api/docs': { access: 'public', request: () => ({ url: '/api/docs' }) },

  // auth
  'POST /api/auth/register': {
    access: 'public',
    ok: 201,
    request: () => {
      const username = unique('sweep');
      return {
        url: '/api/auth/register',
        body: { username, email: `${username}@example.com`, password: 'correct-horse', organizationName: username },
      };
    },
  },
  'POST /api/auth/login': {
    access: 'public',
    // The spare user: the sweep changes the role users' passwords later on.
    request: (f) => ({
      url: '/api/auth/login',
      body: { username: f.spareUser.username, password: f.spareUser.password },
    }),
  },
  'POST /api/auth/logout': { access: 'public', request: () => ({ url: '/api/auth/logout' }) },
  'POST /api/auth/forgot-password': {
    access: 'public',
    request: () => ({ url: '/api/auth/forgot-password', body: { email: 'nobody@example.com' } }),
  },
  'POST /api/auth/reset-password': {
    access: 'public',
    ok: 400, // a real reset link is covered in auth tests; here: anonymous callers reach the route
    request: () => ({
      url: '/api/auth/reset-password',
      body: { token: 'x'.repeat(40), newPassword: 'correct-horse-2', confirmPassword: 'correct-horse-2' },
    }),
  },
  'GET /api/auth/invitations/:token': {
    access: 'public',
    request: (f) => ({ url: `/api/auth/invitations/${f.invitationToken}` }),
  },
  'GET /api/auth/demo-credentials': { access: 'public', request: () => ({ url: '/api/auth/demo-credentials' }) },
  'GET /api/auth/me': { access: 'signed-in', request: () => ({ url: '/api/auth/me' }) },
  'PUT /api/auth/profile': {
    access: 'signed-in',
    request: (_f, as) => ({ url: '/api/auth/profile', body: { username: as?.username, email: as?.email } }),
  },
  'PUT /api/auth/change-password': {
    access: 'signed-in',
    endsTokens: true,
    request: (_f, as) => ({
      url: '/api/auth/change-password',
      body: { currentPassword: as?.password, newPassword: 'correct-horse-2', confirmPassword: 'correct-horse-2' },
    }),
  },
  'POST /api/auth/confirm-email': {
    access: 'public',
    ok: 400, // a real link is covered in test/security/identity.test.ts; here: anonymous callers reach the route
    request: () => ({ url: '/api/auth/confirm-email', body: { token: 'x'.repeat(43) } }),
  },
  // SSO sign-in: the flow itself (a real provider, state, tokens) is tested in test/sso.test.ts; here anonymous
  // callers reach the routes and nothing else gets through.
  'GET /api/auth/sso/discover': {
    access: 'public',
    ok: 404, // no organization of the sweep signs in with SSO
    request: () => ({ url: '/api/auth/sso/discover?email=someone%40nobody.example' }),
  },
  'GET /api/auth/sso/start': {
    access: 'public',
    ok: 302, // back to the login page: no such organization
    request: () => ({ url: '/api/auth/sso/start?organization=no-such-organization' }),
  },
  'GET /api/auth/sso/callback': {
    access: 'public',
    ok: 302, // to the login page: no sign-in was started in this browser
    request: () => ({ url: '/api/auth/sso/callback?state=unknown&code=unknown' }),
  },
  'GET /api/auth/sessions': { access: 'signed-in', request: () => ({ url: '/api/auth/sessions' }) },
  'POST /api/auth/sessions/revoke-others': {
    access: 'signed-in',
    request: () => ({ url: '/api/auth/sessions/revoke-others' }),
  },

  // organization and users
  'GET /api/organizations/current': {
    access: 'organization:read',
    request: () => ({ url: '/api/organizations/current' }),
  },
  'PUT /api/organizations/current': {
    access: 'organization:update',
    request: () => ({ url: '/api/organizations/current', body: { brandName: unique('Brand ') } }),
  },
  'GET /api/organizations/stats': { access: 'stats:read', request: () => ({ url: '/api/organizations/stats' }) },
  'GET /api/organizations/users': { access: 'users:read', request: () => ({ url: '/api/organizations/users' }) },
  'PUT /api/organizations/users/:userId/role': {
    access: 'users:manage',
    ownsIds: true,
    request: (f) => ({ url: `/api/organizations/users/${f.ids.spareUser}/role`, body: { role: 'contributor' } }),
  },
  'DELETE /api/organizations/users/:userId': {
    access: 'users:manage',
    ownsIds: true,
    destroys: true,
    request: (f) => ({ url: `/api/organizations/users/${f.ids.spareUser}` }),
  },
  'POST /api/organizations/invitations': {
    access: 'invitations:manage',
    ok: 201,
    request: () => ({
      url: '/api/organizations/invitations',
      body: { email: `${unique('invitee')}@example.com`, role: 'viewer' },
    }),
  },
  'GET /api/organizations/invitations': {
    access: 'invitations:manage',
    request: () => ({ url: '/api/organizations/invitations' }),
  },
  'DELETE /api/organizations/invitations/:id': {
    access: 'invitations:manage',
    ownsIds: true,
    destroys: true,
    request: (f) => ({ url: `/api/organizations/invitations/${f.ids.invitation}` }),
  },

  // workspaces
  'GET /api/workspaces': { access: 'workspaces:read', request: () => ({ url: '/api/workspaces' }) },
  'POST /api/workspaces': {
    access: 'workspaces:manage',
    ok: 201,
    request: () => ({ url: '/api/workspaces', body: { name: unique('ws ') } }),
  },
  'PUT /api/workspaces/:id': {
    access: 'workspaces:manage',
    ownsIds: true,
    request: (f) => ({ url: `/api/workspaces/${f.ids.otherWorkspace}`, body: { name: `${f.marker} renamed` } }),
  },
  'DELETE /api/workspaces/:id': {
    access: 'workspaces:manage',
    ownsIds: true,
    destroys: true,
    request: (f) => ({ url: `/api/workspaces/${f.ids.spareWorkspace}` }),
  },

  // admin
  'GET /api/admin/users': { access: 'users:manage', request: () => ({ url: '/api/admin/users' }) },
  'GET /api/admin/audit-logs': { access: 'audit:read', request: () => ({ url: '/api/admin/audit-logs' }) },
  'GET /api/admin/audit-logs/filters': {
    access: 'audit:read',
    request: () => ({ url: '/api/admin/audit-logs/filters' }),
  },
  'GET /api/admin/analytics': { access: 'analytics:read', request: () => ({ url: '/api/admin/analytics' }) },
  'GET /api/admin/accuracy': { access: 'accuracy:read', request: () => ({ url: '/api/admin/accuracy' }) },
  'GET /api/admin/accuracy/export': {
    access: 'accuracy:read',
    request: () => ({ url: '/api/admin/accuracy/export' }),
  },
  'PUT /api/admin/accuracy/calibration': {
    access: 'accuracy:calibrate',
    request: () => ({ url: '/api/admin/accuracy/calibration', body: { enabled: true } }),
  },
  'GET /api/admin/engine': { access: 'engine:read', request: () => ({ url: '/api/admin/engine' }) },
  'GET /api/admin/sso': { access: 'sso:manage', request: () => ({ url: '/api/admin/sso' }) },
  'PUT /api/admin/sso': {
    access: 'sso:manage',
    request: () => ({
      url: '/api/admin/sso',
      body: { issuer: 'https://idp.example.com', clientId: 'verity', clientSecret: 'idp-client-secret' },
    }),
  },
  'DELETE /api/admin/sso': { access: 'sso:manage', destroys: true, request: () => ({ url: '/api/admin/sso' }) },
  // A domain nobody claimed: a permitted caller learns only that (404), and no DNS query is made.
  'POST /api/admin/sso/domains/:domain/verify': {
    access: 'sso:manage',
    ok: 404,
    request: () => ({ url: `/api/admin/sso/domains/${unique('sweep')}.example/verify` }),
  },
  'GET /api/admin/api-tokens': { access: 'api_tokens:manage', request: () => ({ url: '/api/admin/api-tokens' }) },
  'POST /api/admin/api-tokens': {
    access: 'api_tokens:manage',
    ok: 201,
    request: () => ({ url: '/api/admin/api-tokens', body: { name: 'sweep', role: 'viewer', expiresInDays: 30 } }),
  },
  'DELETE /api/admin/api-tokens/:id': {
    access: 'api_tokens:manage',
    ownsIds: true,
    destroys: true,
    request: (f) => ({ url: `/api/admin/api-tokens/${f.ids.token}` }),
  },
  'GET /api/admin/scim': { access: 'sso:manage', request: () => ({ url: '/api/admin/scim' }) },
  'POST /api/admin/scim/tokens': { access: 'sso:manage', ok: 201, request: () => ({ url: '/api/admin/scim/tokens' }) },
  'DELETE /api/admin/scim/tokens/:id': {
    access: 'sso:manage',
    ownsIds: true,
    destroys: true,
    request: (f) => ({ url: `/api/admin/scim/tokens/${f.ids.scimToken}` }),
  },

  // knowledge library
  'GET /api/canonical-answers': { access: 'knowledge:read', request: () => ({ url: '/api/canonical-answers' }) },
  'GET /api/canonical-answers/counts': {
    access: 'knowledge:read',
    request: () => ({ url: '/api/canonical-answers/counts' }),
  },
  'GET /api/canonical-answers/ids': {
    access: 'knowledge:read',
    request: () => ({ url: '/api/canonical-answers/ids' }),
  },
  'GET /api/canonical-answers/tags': {
    access: 'knowledge:read',
    request: () => ({ url: '/api/canonical-answers/tags' }),
  },
  'GET /api/canonical-answers/issues': {
    access: 'knowledge:read',
    request: () => ({ url: '/api/canonical-answers/issues' }),
  },
  'GET /api/canonical-answers/:id': {
    access: 'knowledge:read',
    ownsIds: true,
    request: (f) => ({ url: `/api/canonical-answers/${f.ids.entry}` }),
  },
  'GET /api/canonical-answers/:id/versions': {
    access: 'knowledge:read',
    ownsIds: true,
    request: (f) => ({ url: `/api/canonical-answers/${f.ids.entry}/versions` }),
  },
  'POST /api/canonical-answers': {
    access: 'knowledge:create_draft',
    ok: 201,
    request: () => ({
      url: '/api/canonical-answers',
      body: { question: `${unique('Do you sweep ')}?`, answer: 'Yes, the sweep runs every day.', status: 'draft' },
    }),
  },
  'PUT /api/canonical-answers/:id': {
    access: 'knowledge:create_draft',
    ownsIds: true,
    request: (f) => ({
      url: `/api/canonical-answers/${f.ids.draft}`,
      body: { answer: 'Yes, with keys rotated yearly.' },
    }),
  },
  'POST /api/canonical-answers/:id/verify': {
    access: 'knowledge:approve',
    ownsIds: true,
    request: (f) => ({ url: `/api/canonical-answers/${f.ids.entry}/verify` }),
  },
  'DELETE /api/canonical-answers/:id': {
    access: 'knowledge:delete',
    ownsIds: true,
    destroys: true,
    request: (f) => ({ url: `/api/canonical-answers/${f.ids.spareEntry}` }),
  },
  'POST /api/canonical-answers/import': {
    access: 'knowledge:import',
    request: () => ({
      url: '/api/canonical-answers/import',
      body: { entries: [{ question: `${unique('Do you import ')}?`, answer: 'Yes, from CSV and JSON.' }] },
    }),
  },
  'POST /api/canonical-answers/export': {
    access: 'knowledge:read',
    ownsIds: true,
    request: (f) => ({ url: '/api/canonical-answers/export', body: { answerIds: [f.ids.entry], format: 'csv' } }),
  },

  // library suggestions
  'GET /api/library-suggestions': {
    access: 'knowledge:create_draft',
    request: () => ({ url: '/api/library-suggestions?status=pending' }),
  },
  'POST /api/library-suggestions': {
    access: 'knowledge:create_draft',
    ok: 201,
    request: () => ({
      url: '/api/library-suggestions',
      body: { question: `${unique('Do you suggest ')}?`, answer: 'Yes, suggestions wait for an approver.' },
    }),
  },
  'POST /api/library-suggestions/:id/approve': {
    access: 'knowledge:approve',
    ownsIds: true,
    destroys: true, // a decided suggestion cannot be decided again
    request: (f) => ({ url: `/api/library-suggestions/${f.ids.suggestion}/approve`, body: {} }),
  },
  'POST /api/library-suggestions/:id/reject': {
    access: 'knowledge:approve',
    ownsIds: true,
    destroys: true,
    request: (f) => ({
      url: `/api/library-suggestions/${f.ids.spareSuggestion}/reject`,
      body: { reason: 'Covered by an existing entry.' },
    }),
  },

  // objects and documents
  'POST /api/objects/upload': { access: 'documents:upload', request: () => ({ url: '/api/objects/upload' }) },
  'PUT /api/objects/local/*': {
    access: 'public', // the signature is the credential
    request: async (f, _as, app) => {
      const res = await call(app, 'POST', '/api/objects/upload', { as: f.users.admin });
      return {
        url: localPath(res.data.uploadURL as string),
        body: Buffer.from('hello'),
        contentType: 'application/octet-stream',
      };
    },
  },
  'GET /api/documents': { access: 'documents:read', request: () => ({ url: '/api/documents' }) },
  'PUT /api/documents': {
    access: 'documents:upload',
    ownsIds: true, // the upload URL is the tenant's own
    ok: 201,
    request: async (f, _as, app) => ({
      url: '/api/documents',
      body: {
        documentURL: await uploadObject(app, f.users.admin, new TextEncoder().encode(`${f.marker} registers.`)),
        originalName: `${unique('sweep')}.txt`,
        mimeType: 'text/plain',
        size: f.marker.length + 11,
      },
    }),
  },
  'GET /api/documents/:id': {
    access: 'documents:read',
    ownsIds: true,
    request: (f) => ({ url: `/api/documents/${f.ids.document}` }),
  },
  'GET /api/documents/:id/chunks': {
    access: 'documents:read',
    ownsIds: true,
    request: (f) => ({ url: `/api/documents/${f.ids.document}/chunks` }),
  },
  'GET /api/documents/:id/download': {
    access: 'documents:read',
    ownsIds: true,
    request: (f) => ({ url: `/api/documents/${f.ids.document}/download` }),
  },
  'DELETE /api/documents/:id': {
    access: 'documents:delete',
    ownsIds: true,
    destroys: true,
    request: (f) => ({ url: `/api/documents/${f.ids.spareDocument}` }),
  },
  'POST /api/documents/bulk-delete': {
    access: 'documents:delete',
    ownsIds: true,
    destroys: true,
    request: (f) => ({ url: '/api/documents/bulk-delete', body: { documentIds: [f.ids.spareDocument2] } }),
  },
  'POST /api/documents/export': {
    access: 'documents:read',
    ownsIds: true,
    request: (f) => ({ url: '/api/documents/export', body: { documentIds: [f.ids.document] } }),
  },

  // ask and chat history
  'POST /api/qa/sessions': {
    access: 'qa:ask',
    ok: 201,
    request: () => ({ url: '/api/qa/sessions', body: { title: 'Sweep chat' } }),
  },
  'PUT /api/qa/sessions/:id': {
    access: 'qa:ask',
    ownsIds: true,
    request: (f) => ({ url: `/api/qa/sessions/${f.ids.chat}`, body: { title: `${f.marker} renamed chat` } }),
  },
  'GET /api/qa/sessions': { access: 'chat_history:read', request: () => ({ url: '/api/qa/sessions' }) },
  'GET /api/qa/sessions/:id': {
    access: 'chat_history:read',
    ownsIds: true,
    request: (f) => ({ url: `/api/qa/sessions/${f.ids.viewerChat}` }),
  },
  'POST /api/qa/tasks/:id/dismiss': {
    access: 'knowledge:create_draft',
    ownsIds: true,
    request: (f) => ({ url: `/api/qa/tasks/${f.ids.task}/dismiss` }),
  },
  'POST /api/qa/ask': {
    access: 'qa:ask',
    request: () => ({ url: '/api/qa/ask', body: { question: 'Do you encrypt backups?' } }),
  },
  'POST /api/qa/entries': {
    access: 'qa:ask',
    request: () => ({ url: '/api/qa/entries', body: { questions: ['Do you encrypt backups?'] } }),
  },
  'GET /api/qa/matches': {
    access: 'knowledge:read',
    request: () => ({ url: `/api/qa/matches?q=${encodeURIComponent('Do you encrypt backups?')}` }),
  },
  'GET /api/qa/sessions/all': { access: 'chat_history:read', request: () => ({ url: '/api/qa/sessions/all' }) },
  'GET /api/qa/entries/all': { access: 'chat_history:read', request: () => ({ url: '/api/qa/entries/all' }) },
  'GET /api/qa/tasks': { access: 'chat_history:read', request: () => ({ url: '/api/qa/tasks' }) },
  'POST /api/qa/entries/export': {
    access: 'chat_history:read',
    request: () => ({ url: '/api/qa/entries/export', body: {} }),
  },

  // assessments
  'GET /api/assessments': { access: 'assessments:read', request: () => ({ url: '/api/assessments' }) },
  'POST /api/assessments/import-csv': {
    access: 'assessments:run',
    ok: 201,
    request: () => ({ url: '/api/assessments/import-csv', body: { csvContent: CSV, name: 'Sweep' } }),
  },
  'POST /api/assessments/preview': {
    access: 'assessments:run',
    request: () => ({ url: '/api/assessments/preview', multipart: form({}) }),
  },
  'POST /api/assessments/import': {
    access: 'assessments:run',
    ok: 201,
    request: () => ({ url: '/api/assessments/import', multipart: form({ name: 'Sweep upload' }) }),
  },
  'DELETE /api/questionnaire-layouts/:id': {
    access: 'assessments:run',
    ownsIds: true,
    destroys: true,
    // A layout of the tenant's own, made for each call: forgetting one consumes it.
    request: async (f, _as, app) => {
      const [layout] = await app.database.db
        .insert(questionnaireLayouts)
        .values({
          organizationId: f.ids.organization,
          fingerprint: unique('sweep-layout'),
          sheetNamesKey: 'sweep',
          mapping: [],
        })
        .returning({ id: questionnaireLayouts.id });
      if (!layout) throw new Error('no layout inserted');
      return { url: `/api/questionnaire-layouts/${layout.id}` };
    },
  },
  'POST /api/import-qa': {
    access: 'assessments:run',
    ok: 201,
    request: () => ({ url: '/api/import-qa', multipart: form({ customerName: 'Sweep customer' }) }),
  },
  'GET /api/assessments/:id': {
    access: 'assessments:read',
    ownsIds: true,
    request: (f) => ({ url: `/api/assessments/${f.ids.assessment}` }),
  },
  'GET /api/assessments/:id/export': {
    access: 'assessments:read',
    ownsIds: true,
    request: (f) => ({ url: `/api/assessments/${f.ids.assessment}/export?format=csv` }),
  },
  'GET /api/assessments/:id/batch': {
    access: 'assessments:read',
    ownsIds: true,
    request: (f) => ({ url: `/api/assessments/${f.ids.assessment}/batch` }),
  },
  'DELETE /api/assessments/:id': {
    access: 'assessments:delete',
    ownsIds: true,
    destroys: true,
    request: (f) => ({ url: `/api/assessments/${f.ids.spareAssessment}` }),
  },
  'PUT /api/assessments/:id/questions/:qid': {
    access: 'assessments:run',
    ownsIds: true,
    request: (f) => ({
      url: `/api/assessments/${f.ids.assessment}/questions/${f.ids.question}`,
      body: { answer: 'Yes, backups are encrypted with AES-256.' },
    }),
  },
  'PUT /api/assessments/:id/questions/:qid/choice': {
    access: 'assessments:run',
    ownsIds: true,
    request: (f) => ({
      url: `/api/assessments/${f.ids.assessment}/questions/${f.ids.newQuestion}/choice`,
      body: { value: 'No' },
    }),
  },
  'GET /api/assessments/:id/questions/:qid/evidence': {
    access: 'assessments:run',
    ownsIds: true,
    request: (f) => ({
      url: `/api/assessments/${f.ids.assessment}/questions/${f.ids.question}/evidence?q=encryption`,
    }),
  },
  'POST /api/assessments/:id/questions/:qid/regenerate': {
    access: 'assessments:run',
    ownsIds: true,
    request: (f) => ({ url: `/api/assessments/${f.ids.assessment}/questions/${f.ids.question}/regenerate` }),
  },
  'POST /api/assessments/:id/questions/:qid/library': {
    access: 'assessments:run',
    ownsIds: true,
    ok: 201,
    request: (f) => ({
      url: `/api/assessments/${f.ids.assessment}/questions/${f.ids.newQuestion}/library`,
      body: { tags: ['sweep'] },
    }),
  },
  'POST /api/assessments/:id/retry-failed': {
    access: 'assessments:run',
    ownsIds: true,
    request: (f) => ({ url: `/api/assessments/${f.ids.assessment}/retry-failed` }),
  },

  // assessment review
  'POST /api/assessments/:id/questions/:qid/review': {
    access: 'assessments:run',
    ownsIds: true,
    destroys: true, // the drafted answer is in review afterwards: submitting it again is a conflict
    request: (f) => ({
      url: `/api/assessments/${f.ids.assessment}/questions/${f.ids.newQuestion}/review`,
      body: { action: 'submit' },
    }),
  },
  'POST /api/assessments/:id/review': {
    access: 'assessments:approve',
    ownsIds: true,
    request: (f) => ({
      url: `/api/assessments/${f.ids.assessment}/review`,
      body: { action: 'accept', minConfidence: 90 },
    }),
  },
  'PATCH /api/assessments/:id': {
    access: 'assessments:assign',
    ownsIds: true,
    request: (f) => ({ url: `/api/assessments/${f.ids.assessment}`, body: { dueOn: '2030-01-31' } }),
  },
  'GET /api/my-questions': { access: 'assessments:read', request: () => ({ url: '/api/my-questions' }) },
  'GET /api/review-queue': { access: 'assessments:approve', request: () => ({ url: '/api/review-queue' }) },
};
