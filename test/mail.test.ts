import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createTestApp, type TestApp } from './helpers/app';
import { call } from './helpers/api';
import { createOrg, lastMailTo, unique } from './helpers/factories';
import { startSmtp, type LocalSmtp } from './helpers/smtp';

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
    await vi.waitFor(() => expect(smtp.received.some((m) => m.to.includes(admin.email))).toBe(true), {
      timeout: 10_000,
    });
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
