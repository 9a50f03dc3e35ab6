import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from './helpers/app';
import { call } from './helpers/api';
import { createAnswer, createOrg, createTenantPair } from './helpers/factories';

let app: TestApp;
beforeAll(async () => {
  app = await createTestApp();
});
afterAll(() => app.close());

type Issue = { kind: string; similarity: number; reason: string; entries: Array<{ id: string; question: string }> };

describe('GET /api/canonical-answers/issues', () => {
  it('finds reworded duplicates and conflicting answers, and counts conflicts in stats', async () => {
    const org = await createOrg(app);
    const rest1 = await createAnswer(app, org.admin, {
      question: 'Is customer data encrypted at rest?',
      answer: 'Yes, all customer data is encrypted at rest with AES-256.',
    });
    const rest2 = await createAnswer(app, org.admin, {
      question: 'Do you encrypt customer data at rest?',
      answer: 'Yes. We use AES-256 for every data store.',
    });
    const mfa1 = await createAnswer(app, org.admin, {
      question: 'Is multi-factor authentication required for administrators?',
      answer: 'Yes, MFA is enforced for every administrator account.',
    });
    const mfa2 = await createAnswer(app, org.admin, {
      question: 'Do you require MFA for administrators?',
      answer: 'No, administrators sign in with a password and VPN only.',
      status: 'draft',
    });
    const pw1 = await createAnswer(app, org.admin, {
      question: 'How often must passwords be rotated?',
      answer: 'Passwords expire every 90 days for all staff accounts.',
    });
    const pw2 = await createAnswer(app, org.admin, {
      question: 'How often are passwords rotated?',
      answer: 'Passwords expire every 60 days for all staff accounts.',
    });
    // Same topic, different question: never paired.
    await createAnswer(app, org.admin, {
      question: 'Is customer data encrypted in transit?',
      answer: 'Yes, TLS 1.2 or later protects all traffic.',
    });

    const res = await call(app, 'GET', '/api/canonical-answers/issues', { as: org.admin });
    expect(res.statusCode).toBe(200);
    const issues = res.data as Issue[];
    const pairOf = (i: Issue) => i.entries.map((e) => e.id).sort();
    const find = (a: string, b: string) => issues.find((i) => pairOf(i).join() === [a, b].sort().join());
    expect(find(mfa1.id, mfa2.id)).toMatchObject({
      kind: 'conflict',
      // The pair's order (and so the sentence's) follows creation order, which ties within one instant.
      reason: expect.stringMatching(/^One answer says (yes, the other says no|no, the other says yes)\.$/),
    });
    expect(find(pw1.id, pw2.id)).toMatchObject({
      kind: 'conflict',
      reason: expect.stringMatching(/^The answers give different figures \((90 vs 60|60 vs 90)\)\.$/),
    });
    expect(find(rest1.id, rest2.id)).toMatchObject({ kind: 'duplicate' });
    expect(issues).toHaveLength(3);
    expect(issues.map((i) => i.kind)).toEqual(['conflict', 'conflict', 'duplicate']);

    const stats = await call(app, 'GET', '/api/organizations/stats', { as: org.admin });
    expect(stats.data.openConflicts).toBe(2);

    // "Keep this one": archiving the other resolves the pair.
    await call(app, 'PUT', `/api/canonical-answers/${mfa2.id}`, { as: org.admin, body: { status: 'archived' } });
    const after = (await call(app, 'GET', '/api/canonical-answers/issues', { as: org.admin })).data as Issue[];
    expect(after).toHaveLength(2);
    expect((await call(app, 'GET', '/api/organizations/stats', { as: org.admin })).data.openConflicts).toBe(1);

    // Editing an answer so the figures agree resolves the conflict into a duplicate.
    await call(app, 'PUT', `/api/canonical-answers/${pw2.id}`, {
      as: org.admin,
      body: { answer: 'Passwords expire every 90 days for all staff accounts.' },
    });
    const last = (await call(app, 'GET', '/api/canonical-answers/issues', { as: org.admin })).data as Issue[];
    expect(last.map((i) => i.kind)).toEqual(['duplicate', 'duplicate']);
  });

  it("only ever pairs entries of the caller's workspace", async () => {
    const { a, b } = await createTenantPair(app);
    await createAnswer(app, a.admin, { question: 'Do you have a documented patch policy?' });
    await createAnswer(app, b.admin, { question: 'Is there a documented patch policy?' });
    expect((await call(app, 'GET', '/api/canonical-answers/issues', { as: a.admin })).data).toEqual([]);
    expect((await call(app, 'GET', '/api/canonical-answers/issues', { as: b.users.viewer })).data).toEqual([]);
    expect((await call(app, 'GET', '/api/canonical-answers/issues')).statusCode).toBe(401);
  });
});
