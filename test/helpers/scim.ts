import type { TestApp } from './app';
import { call, type Session } from './api';
import { unique } from './factories';

export const USER_SCHEMA = 'urn:ietf:params:scim:schemas:core:2.0:User';
export const GROUP_SCHEMA = 'urn:ietf:params:scim:schemas:core:2.0:Group';
export const PATCH_SCHEMA = 'urn:ietf:params:scim:api:messages:2.0:PatchOp';
export const ERROR_SCHEMA = 'urn:ietf:params:scim:api:messages:2.0:Error';
export const LIST_SCHEMA = 'urn:ietf:params:scim:api:messages:2.0:ListResponse';

type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/**
 * One SCIM call as an identity provider makes it: the bearer token, and a body sent as `application/scim+json`
 * (or the content type given; a string body is sent as it is).
 */
export async function scim(
  app: TestApp,
  token: string | null,
  method: Method,
  path: string,
  opts: { body?: unknown; contentType?: string; headers?: Record<string, string> } = {},
) {
  const headers: Record<string, string> = { ...opts.headers };
  if (token !== null) headers.authorization = `Bearer ${token}`;
  if (opts.body !== undefined) headers['content-type'] = opts.contentType ?? 'application/scim+json';
  const res = await app.inject({
    method,
    url: `/scim/v2${path}`,
    headers,
    ...(opts.body !== undefined && {
      payload: typeof opts.body === 'string' ? opts.body : JSON.stringify(opts.body),
    }),
  });
  let data: unknown;
  try {
    data = JSON.parse(res.body);
  } catch {
    data = undefined;
  }
  // Responses are checked by assertions, not by the compiler: a loose type keeps tests readable.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  return Object.assign(res, { data: data as any });
}

/** A SCIM token of the admin's organization, made through the admin API as an admin would. */
export async function createScimToken(app: TestApp, admin: Session): Promise<{ id: string; token: string }> {
  const res = await call(app, 'POST', '/api/admin/scim/tokens', { as: admin });
  if (res.statusCode !== 201) throw new Error(`SCIM token failed: ${res.statusCode} ${res.body}`);
  return { id: res.data.view.id, token: res.data.token };
}

/** A User body as Okta sends it on create. */
export function oktaUser(overrides: Record<string, unknown> = {}) {
  const userName = `${unique('scim')}@example.com`;
  return {
    schemas: [USER_SCHEMA],
    userName,
    name: { givenName: 'Ada', familyName: 'Lovelace' },
    emails: [{ primary: true, value: userName, type: 'work' }],
    displayName: 'Ada Lovelace',
    locale: 'en-US',
    externalId: unique('00u'),
    groups: [],
    password: 'ignored-by-verity',
    active: true,
    ...overrides,
  };
}

/** Creates a user over SCIM and returns its resource. */
export async function provisionUser(app: TestApp, token: string, overrides: Record<string, unknown> = {}) {
  const res = await scim(app, token, 'POST', '/Users', { body: oktaUser(overrides) });
  if (res.statusCode !== 201) throw new Error(`SCIM create failed: ${res.statusCode} ${res.body}`);
  return res.data as { id: string; userName: string; emails: Array<{ value: string }>; active: boolean };
}

export const patchOp = (...Operations: unknown[]) => ({ schemas: [PATCH_SCHEMA], Operations });
