import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { exportJWK, generateKeyPair, SignJWT, type JWK } from 'jose';
import Provider, { type KoaContextWithOIDC } from 'oidc-provider';

/** A person the provider knows: `login` is what they type in its sign-in form. */
export type TestAccount = {
  login: string;
  sub: string;
  email?: string;
  emailVerified?: boolean;
  givenName?: string;
  familyName?: string;
  groups?: string[];
};

export type TokenTamper = (body: Record<string, unknown>) => Record<string, unknown> | Promise<Record<string, unknown>>;

export type TestOidcProvider = {
  issuer: string;
  clientId: string;
  clientSecret: string;
  /** Adds or replaces a person who can sign in. */
  addAccount(account: TestAccount): void;
  /** Changes the token endpoint's answer before the client gets it (null: answer as the provider does). */
  tamperTokens(fn: TokenTamper | null): void;
  /** Signs a JWT with the provider's own key (to forge tokens with valid signatures but wrong claims). */
  sign(claims: Record<string, unknown>): Promise<string>;
  close(): Promise<void>;
};

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/**
 * A real OpenID Provider (the `oidc-provider` package, the certified implementation) on a loopback port, for one
 * confidential client whose redirect URIs are given. Its interaction page is a plain form asking for a login: what
 * the person types picks the account. Consent is given without asking (a first-party client).
 */
export async function startOidcProvider(opts: {
  redirectUris: string[];
  clientId?: string;
  clientSecret?: string;
}): Promise<TestOidcProvider> {
  const { privateKey } = await generateKeyPair('RS256', { extractable: true });
  const jwk: JWK = { ...(await exportJWK(privateKey)), kid: 'test-key', alg: 'RS256', use: 'sig' };
  const accounts = new Map<string, TestAccount>();
  let tamper: TokenTamper | null = null;
  const clientId = opts.clientId ?? 'verity-test-client';
  const clientSecret = opts.clientSecret ?? 'verity-test-client-secret-0123456789';

  const server = http.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  const provider: Provider = new Provider(issuer, {
    clients: [
      {
        client_id: clientId,
        client_secret: clientSecret,
        redirect_uris: opts.redirectUris,
        grant_types: ['authorization_code'],
        response_types: ['code'],
        token_endpoint_auth_method: 'client_secret_basic',
      },
    ],
    jwks: { keys: [jwk] },
    cookies: { keys: ['test-provider-cookie-key'] },
    pkce: { required: () => true },
    // Explicit lifetimes (the package prints a notice for each default it falls back to).
    ttl: { AccessToken: 600, AuthorizationCode: 60, IdToken: 600, Interaction: 600, Session: 3600, Grant: 3600 },
    // Claims in the ID token itself, as enterprise providers are usually set up to send them.
    conformIdTokenClaims: false,
    claims: {
      openid: ['sub'],
      email: ['email', 'email_verified'],
      profile: ['given_name', 'family_name', 'preferred_username', 'groups'],
    },
    features: { devInteractions: { enabled: false } },
    interactions: { url: (_ctx, interaction) => `/interaction/${interaction.uid}` },
    async findAccount(_ctx, sub) {
      const account = [...accounts.values()].find((a) => a.sub === sub);
      if (!account) return undefined;
      return {
        accountId: sub,
        async claims() {
          return {
            sub,
            ...(account.email !== undefined && { email: account.email }),
            ...(account.emailVerified !== undefined && { email_verified: account.emailVerified }),
            ...(account.givenName !== undefined && { given_name: account.givenName }),
            ...(account.familyName !== undefined && { family_name: account.familyName }),
            preferred_username: account.login,
            ...(account.groups !== undefined && { groups: account.groups }),
          };
        },
      };
    },
    async loadExistingGrant(ctx: KoaContextWithOIDC): Promise<InstanceType<Provider['Grant']> | undefined> {
      const session = ctx.oidc.session;
      const client = ctx.oidc.client;
      if (!session?.accountId || !client) return undefined;
      const grant: InstanceType<Provider['Grant']> = new provider.Grant({
        accountId: session.accountId,
        clientId: client.clientId,
      });
      grant.addOIDCScope('openid email profile');
      await grant.save();
      return grant;
    },
  });

  provider.use(async (ctx, next) => {
    await next();
    if (tamper && ctx.path === '/token' && ctx.status === 200 && ctx.body && typeof ctx.body === 'object') {
      ctx.body = await tamper(ctx.body as Record<string, unknown>);
    }
  });

  const handler = provider.callback();
  server.on('request', (req, res) => {
    const url = new URL(req.url ?? '/', issuer);
    const match = /^\/interaction\/([^/]+)(\/login)?$/.exec(url.pathname);
    if (!match) {
      handler(req, res);
      return;
    }
    void (async () => {
      try {
        await provider.interactionDetails(req, res);
        if (req.method === 'GET') {
          res.setHeader('content-type', 'text/html; charset=utf-8');
          res.end(
            `<!doctype html><html lang="en"><head><title>Test identity provider</title></head><body>` +
              `<main><h1>Test identity provider</h1>` +
              `<form method="post" action="/interaction/${escapeHtml(match[1] ?? '')}/login">` +
              `<label>Login <input name="login" autocomplete="username" required></label>` +
              `<button type="submit">Sign in</button></form></main></body></html>`,
          );
          return;
        }
        const body = await new Promise<string>((resolve) => {
          let data = '';
          req.on('data', (chunk: Buffer) => (data += chunk.toString('utf8')));
          req.on('end', () => resolve(data));
        });
        const login = new URLSearchParams(body).get('login') ?? '';
        const account = accounts.get(login);
        const result = account
          ? { login: { accountId: account.sub } }
          : { error: 'access_denied', error_description: 'Unknown login' };
        await provider.interactionFinished(req, res, result, { mergeWithLastSubmission: false });
      } catch (err) {
        res.statusCode = 400;
        res.end(String(err));
      }
    })();
  });

  return {
    issuer,
    clientId,
    clientSecret,
    addAccount: (account) => accounts.set(account.login, account),
    tamperTokens: (fn) => {
      tamper = fn;
    },
    sign: (claims) =>
      new SignJWT(claims).setProtectedHeader({ alg: 'RS256', kid: 'test-key', typ: 'JWT' }).sign(privateKey),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/**
 * A browser at the provider: follows its redirects with its cookies until the provider sends the browser elsewhere
 * (back to the client), and signs in through its form on the way. Returns that address.
 */
export async function signInAtProvider(authorizationUrl: string, login: string): Promise<URL> {
  const jar = new Map<string, string>();
  const origin = new URL(authorizationUrl).origin;
  const send = async (url: URL, init: RequestInit = {}) => {
    const res = await fetch(url, {
      ...init,
      redirect: 'manual',
      headers: {
        ...(init.headers as Record<string, string>),
        cookie: [...jar].map(([k, v]) => `${k}=${v}`).join('; '),
      },
    });
    for (const line of res.headers.getSetCookie()) {
      const [pair] = line.split(';');
      const eq = pair?.indexOf('=') ?? -1;
      if (pair && eq > 0) jar.set(pair.slice(0, eq).trim(), pair.slice(eq + 1).trim());
    }
    return res;
  };
  let url = new URL(authorizationUrl);
  for (let hops = 0; hops < 20; hops++) {
    if (url.origin !== origin) return url;
    const interaction = /^\/interaction\/([^/]+)$/.exec(url.pathname);
    const res = interaction
      ? await send(new URL(`${url.pathname}/login`, origin), {
          method: 'POST',
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          body: new URLSearchParams({ login }).toString(),
        })
      : await send(url);
    const location = res.headers.get('location');
    if (!location) throw new Error(`the provider answered ${res.status} at ${url.pathname}: ${await res.text()}`);
    url = new URL(location, url);
  }
  throw new Error('too many redirects at the provider');
}
