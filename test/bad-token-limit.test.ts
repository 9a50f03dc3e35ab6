import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from './helpers/app';
import { call } from './helpers/api';
import { createOrg } from './helpers/factories';

let app: TestApp;
beforeAll(async () => {
  app = await createTestApp({ worker: false, env: { AUTH_RATE_LIMIT_PER_MINUTE: '3' } });
});
afterAll(async () => {
  await app.close();
});

const mcp = (authorization: string, remoteAddress: string) =>
  app.inject({
    method: 'POST',
    url: '/mcp',
    remoteAddress,
    headers: { authorization, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
    payload: JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } },
    }),
  });

describe('requests with an unknown or revoked bearer token', () => {
  it('count against the caller’s address: past the limit they get 429, good tokens and other addresses do not', async () => {
    const org = await createOrg(app);
    const created = await call(app, 'POST', '/api/admin/api-tokens', {
      as: org.admin,
      body: { name: 'assistant', role: 'viewer' },
    });
    const good = `Bearer ${created.data.token}`;
    const bad = 'Bearer vrt_not-a-token-at-all-0123456789';
    const api = (authorization: string, remoteAddress: string) =>
      app.inject({ method: 'GET', url: '/api/auth/me', remoteAddress, headers: { authorization } });

    const statuses = [];
    for (let i = 0; i < 3; i++) statuses.push((await api(bad, '203.0.113.7')).statusCode);
    expect(statuses).toEqual([401, 401, 401]);
    const limited = await mcp(bad, '203.0.113.7');
    expect(limited.statusCode).toBe(429);
    expect(limited.json()).toMatchObject({ code: 'rate_limited' });
    expect((await api(bad, '203.0.113.7')).statusCode).toBe(429);

    // A good token from the same address still works, and another address is not held back.
    expect((await api(good, '203.0.113.7')).statusCode).toBe(200);
    expect((await mcp(good, '203.0.113.7')).statusCode).toBe(200);
    expect((await api(bad, '198.51.100.4')).statusCode).toBe(401);
  });
});
