import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from './helpers/app';
import { call } from './helpers/api';
import { createOrg, lastMailTo, unique } from './helpers/factories';
import { startSmtp, type LocalSmtp } from './helpers/smtp';
import { waitUntil } from './helpers/wait';

let smtp: LocalSmtp;
let app: TestApp;
beforeAll(async () => {
  smtp = await startSmtp();
  app = await createTestApp({
    env: { SMTP_URL: `smtp://127.0.0.1:${smtp.port}`, MAIL_FROM: 'Verity <trust@acme.test>' },
  });
});
afterAll(async () => {
  await app.close();
  await smtp.close();
});

describe('mail through SMTP_URL', () => {
  it('sends the password-reset link over SMTP and not to the dev outbox', async () => {
    const { admin } = await createOrg(app);
    const res = await call(app, 'POST', '/api/auth/forgot-password', { body: { email: admin.email } });
    expect(res.statusCode).toBe(200);
    // The reset mail is sent without holding up the answer: wait for it to arrive.
    await waitUntil(() => expect(smtp.received.some((m) => m.to.includes(admin.email))).toBe(true));
    const mail = smtp.received.find((m) => m.to.includes(admin.email));
    expect(mail?.raw).toContain('Subject: Reset your Verity password');
    expect(mail?.raw).toContain('http://verity.test/reset-password?token=');
    expect(mail?.raw).toContain('From: Verity <trust@acme.test>');
    expect(await lastMailTo(app, admin.email)).toBeUndefined();
  });

  it('sends invitations over SMTP', async () => {
    const { admin } = await createOrg(app);
    const email = `${unique('smtp')}@example.com`;
    const inv = await call(app, 'POST', '/api/organizations/invitations', {
      as: admin,
      body: { email, role: 'viewer' },
    });
    expect(inv.statusCode).toBe(201);
    const mail = smtp.received.find((m) => m.to.includes(email));
    expect(mail?.raw.replace(/=\r?\n/g, '')).toContain(inv.data.token.slice(0, 20));
  });
});

describe('names that go into e-mails', () => {
  it('refuses text-direction controls and line breaks in organization names, at sign-up and on rename', async () => {
    const { admin } = await createOrg(app);
    for (const name of ['Acme\u202Egpj.exe', 'Acme\u2067Corp\u2069', 'Acme\u200E', 'Acme\r\nSign in at evil.test']) {
      const username = unique('bidi');
      const signUp = await call(app, 'POST', '/api/auth/register', {
        body: { username, email: `${username}@example.com`, password: 'correct-horse', organizationName: name },
      });
      expect(signUp.statusCode, JSON.stringify(name)).toBe(400);
      expect(signUp.data.error).toBe(
        'Organization name cannot contain line breaks, control characters or text-direction controls.',
      );
      const rename = await call(app, 'PUT', '/api/organizations/current', { as: admin, body: { name } });
      expect(rename.statusCode, JSON.stringify(name)).toBe(400);
    }
    const ok = await call(app, 'PUT', '/api/organizations/current', { as: admin, body: { name: 'شركة أكمي' } });
    expect(ok.statusCode, ok.body).toBe(200);
  });
});
