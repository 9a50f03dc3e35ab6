import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../server/app';
import { redactUrl } from '../../server/http/log-options';
import { createTestApp, type TestApp } from '../helpers/app';
import { call } from '../helpers/api';
import { createTenant, unique, type Tenant } from '../helpers/factories';

let app: TestApp;
let org: Tenant;
beforeAll(async () => {
  app = await createTestApp({ worker: false });
  org = await createTenant(app);
});
afterAll(async () => {
  await app.close();
});

/** `/api/auth/login` spelled the ways a router may read as the same route while a string compare would not. */
const LOGIN_SPELLINGS = ['/%61pi/auth/login', '/%61%70%69/auth/login', '/api/%61uth/login', '/%2561pi/auth/login'];

describe('API hooks apply by the route the router matched, not by the raw address', () => {
  it('refuses a cross-site sign-in however the path is encoded', async () => {
    const u = org.users.viewer;
    for (const url of ['/api/auth/login', ...LOGIN_SPELLINGS, '/API/auth/login', '//api/auth/login']) {
      const res = await app.inject({
        method: 'POST',
        url,
        headers: { origin: 'https://evil.example' },
        payload: { username: u.username, password: u.password },
      });
      // Either the route matched and the CSRF check refused it, or nothing matched: never a session.
      expect([403, 404], `${url}: ${res.body}`).toContain(res.statusCode);
      if (res.statusCode === 403) expect(JSON.parse(res.body).code, url).toBe('cross_site_request');
      expect(
        res.cookies.some((c) => c.name === 'verity_session' && c.value),
        url,
      ).toBe(false);
    }
  });

  it('refuses NUL in the address of an encoded API path', async () => {
    for (const prefix of ['/api', '/%61pi', '/%61%70%69']) {
      const res = await call(app, 'GET', `${prefix}/canonical-answers?q=a%00b`, { as: org.admin });
      expect(res.statusCode, `${prefix}: ${res.body}`).toBe(400);
      expect(res.data.code).toBe('invalid_input');
    }
  });

  it('asks an anonymous caller of an encoded API path to sign in', async () => {
    for (const prefix of ['/%61pi', '/%61%70%69']) {
      const res = await call(app, 'GET', `${prefix}/workspaces`);
      expect(res.statusCode, prefix).toBe(401);
    }
  });

  it('answers an encoded API path that matches no route with a JSON 404, not the web app', async () => {
    for (const method of ['GET', 'POST'] as const) {
      for (const url of ['/%61pi/nope', '/%61pi', '/api/%6eope', '/API/workspaces', '//api/workspaces']) {
        const res = await call(app, method, url, { as: org.admin, body: method === 'POST' ? {} : undefined });
        expect(res.statusCode, `${method} ${url}`).toBe(404);
        expect(res.data, `${method} ${url}`).toEqual({ error: 'Not found', code: 'not_found' });
      }
    }
  });

  it('a workspace created through an encoded path still passes the same checks', async () => {
    const cross = await call(app, 'POST', '/%61pi/workspaces', {
      as: org.admin,
      body: { name: unique('encoded ') },
      headers: { 'sec-fetch-site': 'cross-site' },
    });
    expect(cross.statusCode).toBe(403);
  });
});

describe('logged addresses', () => {
  it('cut a token out however its address is encoded', () => {
    for (const url of [
      '/%61pi/auth/invitations/SECRET-TOKEN',
      '/api/auth/%69nvitations/SECRET-TOKEN',
      '/reset-password?%74oken=SECRET-TOKEN',
      '/api/objects/local/k?%73ig=SECRET-TOKEN',
    ]) {
      expect(redactUrl(url), url).not.toContain('SECRET');
    }
  });
});

describe('caching of the web app', () => {
  let webDir: string;
  let built: Awaited<ReturnType<typeof buildApp>>;
  beforeAll(async () => {
    // A stand-in build output: an HTML page, a content-hashed asset as vite names them, and an unhashed file.
    webDir = fs.mkdtempSync(path.join(os.tmpdir(), 'verity-web-cache-'));
    fs.writeFileSync(path.join(webDir, 'index.html'), '<!doctype html><div id="root"></div>');
    fs.mkdirSync(path.join(webDir, 'assets'));
    fs.writeFileSync(path.join(webDir, 'assets', 'index-DiwrgTda.js'), 'console.log(1)');
    fs.writeFileSync(path.join(webDir, 'favicon.svg'), '<svg/>');
    built = await buildApp({ ...app.deps, config: { ...app.config, webDistDir: webDir } });
  });
  afterAll(async () => {
    await built.close();
    fs.rmSync(webDir, { recursive: true, force: true });
  });

  it('serves every HTML page with no-cache, so a new release is picked up at once', async () => {
    for (const url of ['/', '/dashboard', '/assessments/123', '/index.html']) {
      const res = await built.inject({ method: 'GET', url });
      expect(res.statusCode, url).toBe(200);
      expect(res.body, url).toContain('<div id="root">');
      expect(res.headers['cache-control'], url).toBe('no-cache');
    }
  });

  it('serves content-hashed assets as immutable and revalidates unhashed files', async () => {
    const js = await built.inject({ method: 'GET', url: '/assets/index-DiwrgTda.js' });
    expect(js.statusCode).toBe(200);
    expect(js.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    const icon = await built.inject({ method: 'GET', url: '/favicon.svg' });
    expect(icon.statusCode).toBe(200);
    expect(icon.headers['cache-control']).toBe('no-cache');
  });
});
