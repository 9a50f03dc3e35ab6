import { expect } from 'vitest';
import { can, type Action } from '../../common/policies';
import type { TestApp } from './app';
import { call } from './api';
import type { Tenant } from './factories';

type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';

/**
 * For every role of the tenant: a role the policy refuses gets 403 and a sentence; a role it allows succeeds (2xx).
 * `request` builds a fresh call per role so destructive calls can be given their own target.
 */
export async function expectRolePolicy(
  app: TestApp,
  tenant: Tenant,
  action: Action,
  request: () =>
    Promise<{ method: Method; url: string; body?: unknown }> | { method: Method; url: string; body?: unknown },
) {
  for (const [role, user] of Object.entries(tenant.users)) {
    const { method, url, body } = await request();
    const res = await call(app, method, url, { as: user, body });
    if (can(user.role, action)) {
      expect(res.statusCode, `${role} may ${action}: ${method} ${url} → ${res.body}`).toBeGreaterThanOrEqual(200);
      expect(res.statusCode, `${role} may ${action}: ${method} ${url} → ${res.body}`).toBeLessThan(300);
    } else {
      expect(res.statusCode, `${role} may not ${action}: ${method} ${url}`).toBe(403);
      expect(res.data).toMatchObject({ code: 'forbidden', error: expect.stringContaining('does not allow') });
    }
  }
}
