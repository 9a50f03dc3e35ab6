import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createTestApp, type TestApp } from './helpers/app';
import { call } from './helpers/api';
import { buildApp } from '../server/app';

let app: TestApp;
let webDir: string;
beforeAll(async () => {
  // A stand-in build output, so the SPA fallback is tested without running vite in the API suite.
  webDir = fs.mkdtempSync(path.join(os.tmpdir(), 'verity-web-'));
  fs.writeFileSync(path.join(webDir, 'index.html'), '<!doctype html><div id="root"></div>');
  fs.writeFileSync(path.join(webDir, 'app.js'), 'console.log(1)');
  app = await createTestApp();
});
afterAll(async () => {
  await app.close();
  fs.rmSync(webDir, { recursive: true, force: true });
});

describe('health and API description', () => {
  it('GET /api/health answers ok', async () => {
    const res = await call(app, 'GET', '/api/health');
    expect(res.statusCode).toBe(200);
    expect(res.data).toEqual({ status: 'ok' });
  });

  it('GET /api/docs serves the OpenAPI description generated from the route schemas', async () => {
    const res = await call(app, 'GET', '/api/docs');
    expect(res.statusCode).toBe(200);
    expect(res.data.openapi).toMatch(/^3\./);
    expect(Object.keys(res.data.paths)).toEqual(
      expect.arrayContaining(['/api/auth/register', '/api/organizations/users/{userId}/role', '/api/workspaces/{id}']),
    );
    const register = res.data.paths['/api/auth/register'].post;
    expect(JSON.stringify(register.requestBody)).toContain('organizationName');
  });
});

describe('unknown paths', () => {
  it('answers JSON 404 under /api', async () => {
    for (const url of ['/api/nope', '/api', '/api/auth/nope?x=1']) {
      const res = await call(app, 'GET', url);
      expect(res.statusCode, url).toBe(404);
      expect(res.data).toEqual({ error: 'Not found', code: 'not_found' });
    }
  });

  it('sets security headers', async () => {
    const res = await call(app, 'GET', '/api/health');
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(String(res.headers['content-security-policy'])).toContain("default-src 'self'");
  });
});

describe('web app fallback', () => {
  it('serves index.html for app routes and static files as they are', async () => {
    // The static root is read when the app is built, so this one is built over the stand-in directory.
    const built = await buildApp({ ...app.deps, config: { ...app.config, webDistDir: webDir } });
    try {
      for (const url of ['/', '/dashboard', '/assessments/123', '/no/such/page']) {
        const res = await built.inject({ method: 'GET', url });
        expect(res.statusCode, url).toBe(200);
        expect(res.body).toContain('<div id="root">');
      }
      const js = await built.inject({ method: 'GET', url: '/app.js' });
      expect(js.body).toBe('console.log(1)');
      expect((await built.inject({ method: 'GET', url: '/api/zzz' })).statusCode).toBe(404);
    } finally {
      await built.close();
    }
  });
});
