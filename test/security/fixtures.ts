import type { TestApp } from '../helpers/app';
import { call, type Session } from '../helpers/api';
import { createAnswer, createUser, unique, type Tenant, type TestUser } from '../helpers/factories';
import { settledDocument, uploadDocument } from '../helpers/documents';
import { detail, importCsv, waitForBatch } from '../helpers/assessments';
import { eq } from 'drizzle-orm';
import { assessmentQuestions, qaEntries, qaSessions } from '../../server/db/schema';
import { waitUntil } from '../helpers/wait';

/**
 * One organization's worth of everything the API can address: a library entry, a document, a chat, an assessment
 * with questions, a second workspace, an invitation, an API token, plus spare copies that destructive calls may
 * consume. `markers` are strings that exist only in this tenant: a response to another tenant must hold none.
 */
export type Fixture = Awaited<ReturnType<typeof seedTenant>>;

async function ok<T>(res: Promise<{ statusCode: number; body: string; data: T }>, expected = 200): Promise<T> {
  const r = await res;
  if (r.statusCode !== expected) throw new Error(`fixture call failed: ${r.statusCode} ${r.body}`);
  return r.data;
}

export async function seedTenant(app: TestApp, tenant: Tenant) {
  const { admin, contributor } = tenant.users;
  const marker = unique('Quokka');
  const entry = await createAnswer(app, admin, { question: `Does ${marker} encrypt backups?` });
  const draft = await createAnswer(app, admin, { question: `Does ${marker} rotate keys?`, status: 'draft' });
  const spareEntry = await createAnswer(app, admin, { question: `Does ${marker} log access?` });
  const suggestionOf = (question: string) =>
    ok<{ id: string }>(
      call(app, 'POST', '/api/library-suggestions', {
        as: contributor,
        body: { question, answer: `Yes, ${marker} keeps it for a year.` },
      }),
      201,
    );
  const suggestion = await suggestionOf(`Does ${marker} keep suggestions?`);
  const spareSuggestion = await suggestionOf(`Does ${marker} keep spare suggestions?`);

  const docOf = async (name: string) => {
    const res = await uploadDocument(
      app,
      admin,
      new TextEncoder().encode(`${marker} keeps audit logs for a year.`),
      name,
    );
    if (res.statusCode !== 201) throw new Error(`document upload failed: ${res.statusCode} ${res.body}`);
    await settledDocument(app, admin, res.data.id as string);
    return res.data as { id: string; originalName: string };
  };
  const document = await docOf(`${marker}-policy.txt`);
  const spareDocument = await docOf(`${marker}-spare.txt`);
  const spareDocument2 = await docOf(`${marker}-spare-2.txt`);

  const chat = await ok<{ id: string }>(
    call(app, 'POST', '/api/qa/sessions', { as: contributor, body: { title: `${marker} chat` } }),
    201,
  );
  await ok(
    call(app, 'POST', '/api/qa/ask', { as: contributor, body: { question: entry.question, sessionId: chat.id } }),
  );
  // A viewer cannot ask, so their chat (which Chat History and Ask can reopen) is written directly, and so is a
  // contributor's question the workspace answered 'Needs Review' (a task to dismiss).
  const [viewerChat] = await app.database.db
    .insert(qaSessions)
    .values({
      organizationId: tenant.organizationId,
      workspaceId: tenant.workspaceId,
      userId: tenant.users.viewer.id,
      title: `${marker} viewer chat`,
    })
    .returning({ id: qaSessions.id });
  const [task] = await app.database.db
    .insert(qaEntries)
    .values({
      organizationId: tenant.organizationId,
      workspaceId: tenant.workspaceId,
      sessionId: chat.id,
      userId: contributor.id,
      question: `Does ${marker} operate a moon base?`,
      answer: 'No approved answer covers this yet.',
      answerType: 'unknown',
      confidence: 0,
      sources: [],
    })
    .returning({ id: qaEntries.id });

  const csv = `Question\nDoes ${marker} encrypt backups?\nDoes ${marker} fly drones?\n`;
  const assessment = await importCsv(app, admin, csv, `${marker} review`);
  await waitForBatch(app, admin, assessment.id);
  const questions = (await detail(app, admin, assessment.id)).questions;
  await ok(
    call(app, 'PUT', `/api/assessments/${assessment.id}/questions/${questions[1]!.id}`, {
      as: admin,
      body: { answer: 'No. We do not operate drones of any kind.' },
    }),
  );
  // A CSV has no dropdowns: the second question's answer cell gets one, as a workbook's validation would give it.
  await app.database.db
    .update(assessmentQuestions)
    .set({ allowedValues: ['Yes', 'No', 'N/A'] })
    .where(eq(assessmentQuestions.id, questions[1]!.id));
  const spareAssessment = await importCsv(app, admin, `Question\nDoes ${marker} scan ports?\n`, `${marker} spare`);
  await waitForBatch(app, admin, spareAssessment.id);

  const workspace = await ok<{ id: string }>(
    call(app, 'POST', '/api/workspaces', { as: admin, body: { name: `${marker} ws` } }),
    201,
  );
  const spareWorkspace = await ok<{ id: string }>(
    call(app, 'POST', '/api/workspaces', { as: admin, body: { name: `${marker} spare ws` } }),
    201,
  );
  const invitation = await ok<{ id: string; token: string }>(
    call(app, 'POST', '/api/organizations/invitations', {
      as: admin,
      body: { email: `${marker.toLowerCase()}@example.com`, role: 'viewer' },
    }),
    201,
  );
  const spareUser: TestUser = await createUser(app, admin, 'viewer');
  const token = await ok<{ id: string; token: string }>(
    call(app, 'POST', '/api/admin/api-tokens', { as: admin, body: { name: `${marker} token`, role: 'admin' } }),
    201,
  );
  const viewerToken = await ok<{ id: string; token: string }>(
    call(app, 'POST', '/api/admin/api-tokens', { as: admin, body: { name: `${marker} viewer`, role: 'viewer' } }),
    201,
  );
  const scimToken = await ok<{ view: { id: string } }>(call(app, 'POST', '/api/admin/scim/tokens', { as: admin }), 201);

  const ids = {
    organization: tenant.organizationId,
    workspace: tenant.workspaceId,
    otherWorkspace: workspace.id,
    spareWorkspace: spareWorkspace.id,
    entry: entry.id,
    draft: draft.id,
    spareEntry: spareEntry.id,
    suggestion: suggestion.id,
    spareSuggestion: spareSuggestion.id,
    document: document.id,
    spareDocument: spareDocument.id,
    spareDocument2: spareDocument2.id,
    chat: chat.id,
    viewerChat: viewerChat!.id,
    task: task!.id,
    assessment: assessment.id,
    question: questions[0]!.id,
    /** Not yet in the library (the first one is), so it can be saved there. */
    newQuestion: questions[1]!.id,
    spareAssessment: spareAssessment.id,
    invitation: invitation.id,
    spareUser: spareUser.id,
    token: token.id,
    scimToken: scimToken.view.id,
    ...Object.fromEntries(Object.entries(tenant.users).map(([role, u]) => [`user:${role}`, u.id])),
  };
  const markers = [
    marker,
    tenant.organizationName,
    ...Object.values(ids),
    ...Object.values(tenant.users).flatMap((u) => [u.username, u.email]),
    spareUser.username,
  ];
  return {
    tenant,
    users: tenant.users,
    ids,
    marker,
    markers,
    invitationToken: invitation.token,
    apiToken: token.token,
    viewerApiToken: viewerToken.token,
    spareUser,
  };
}

/** The parts of a tenant a cross-tenant attempt must leave exactly as they were, read as its admin. */
export async function snapshot(app: TestApp, f: Fixture, as: Session = f.users.admin): Promise<string> {
  const reads = [
    `/api/canonical-answers/${f.ids.entry}`,
    `/api/canonical-answers/${f.ids.draft}`,
    `/api/canonical-answers/${f.ids.spareEntry}`,
    `/api/documents/${f.ids.document}`,
    `/api/documents/${f.ids.spareDocument}`,
    `/api/assessments/${f.ids.assessment}`,
    `/api/assessments/${f.ids.spareAssessment}`,
    '/api/qa/sessions/all',
    // Lists catch a record another tenant managed to create here.
    '/api/canonical-answers/ids',
    '/api/library-suggestions',
    '/api/documents',
    '/api/assessments',
    '/api/organizations/current',
    '/api/organizations/users',
    '/api/organizations/invitations',
    '/api/workspaces',
    '/api/admin/api-tokens',
    '/api/admin/sso',
    '/api/admin/scim',
  ];
  const out: string[] = [];
  for (const url of reads) {
    const res = await waitUntil(async () => {
      const r = await call(app, 'GET', url, { as });
      if (r.statusCode !== 200) throw new Error(`snapshot read ${url}: ${r.statusCode} ${r.body}`);
      return r;
    });
    // Activity timestamps move with every read; everything else must not.
    out.push(
      `${url} ${JSON.stringify(res.data, (k, v: unknown) => (/lastActive|lastSeen|lastUsed/.test(k) ? undefined : v))}`,
    );
  }
  return out.join('\n');
}
