import fs from 'node:fs';
import path from 'node:path';
import Fastify, { type FastifyInstance, type FastifyBaseLogger } from 'fastify';
import cookie from '@fastify/cookie';
import helmet from '@fastify/helmet';
import multipart from '@fastify/multipart';
import { ASSESSMENT_FILE_MAX_BYTES } from '../common/schemas/assessments';
import { DEFAULT_BODY_LIMIT } from '../common/constants';
import rateLimit from '@fastify/rate-limit';
import swagger from '@fastify/swagger';
import fastifyStatic from '@fastify/static';
import { jsonSchemaTransform, serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import type { AppDeps } from './deps';
import { registerAccess } from './http/access';
import { registerErrorHandler } from './http/error-handler';
import { registerJsonBodyParser } from './http/json-body';
import { collectRoutes } from './http/route-table';
import { authRoutes } from './modules/auth/routes';
import { organizationRoutes } from './modules/organizations/routes';
import { workspaceRoutes } from './modules/workspaces/routes';
import { adminRoutes } from './modules/admin/routes';
import { ssoRoutes } from './modules/sso/routes';
import { knowledgeRoutes } from './modules/knowledge/routes';
import { objectRoutes } from './modules/objects/routes';
import { documentRoutes } from './modules/documents/routes';
import { qaRoutes } from './modules/qa/routes';
import { assessmentRoutes } from './modules/assessments/routes';
import { apiTokenRoutes } from './modules/api-tokens/routes';
import { healthRoutes } from './modules/health/routes';
import { scimRoutes } from './modules/scim/routes';
import { mcpRoutes } from './modules/mcp/routes';

export type BuildOptions = { loggerInstance?: FastifyBaseLogger };

/** The whole HTTP app over the given dependencies. Tests build it with a fresh database; main.ts with the real one. */
export async function buildApp(deps: AppDeps, opts: BuildOptions = {}) {
  const app = Fastify({
    ...(opts.loggerInstance ? { loggerInstance: opts.loggerInstance } : { logger: false }),
    trustProxy: deps.config.trustProxy,
    bodyLimit: DEFAULT_BODY_LIMIT,
  });
  app.decorate('deps', deps);
  app.decorate('routeTable', collectRoutes(app));
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  registerErrorHandler(app);
  registerJsonBodyParser(app);

  await app.register(cookie);
  await app.register(helmet, {
    contentSecurityPolicy: {
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'"],
        // Radix and cmdk set inline styles for positioning.
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", 'data:', 'blob:'],
        connectSrc: ["'self'"],
        objectSrc: ["'none'"],
        frameAncestors: ["'none'"],
        upgradeInsecureRequests: null,
      },
    },
    // Served over plain http on 127.0.0.1 by default; HSTS would break that.
    strictTransportSecurity: false,
  });
  await app.register(rateLimit, { global: false });
  // Questionnaire uploads (assessments): one file part, a few text fields, nothing larger than the format allows.
  await app.register(multipart, {
    limits: { fileSize: ASSESSMENT_FILE_MAX_BYTES, files: 1, fields: 10, fieldSize: 200 * 1024, parts: 12 },
  });
  await app.register(swagger, {
    openapi: { info: { title: 'Verity API', version: '1' } },
    transform: jsonSchemaTransform,
  });

  // After the plugins: their onRequest hooks (cookies, security headers) run before the caller is checked.
  registerAccess(app);

  await app.register(healthRoutes);
  await app.register(authRoutes);
  await app.register(organizationRoutes);
  await app.register(workspaceRoutes);
  await app.register(adminRoutes);
  await app.register(ssoRoutes);
  await app.register(knowledgeRoutes);
  await app.register(objectRoutes);
  await app.register(documentRoutes);
  await app.register(qaRoutes);
  await app.register(assessmentRoutes);
  await app.register(apiTokenRoutes);
  await app.register(scimRoutes);
  await app.register(mcpRoutes);

  await registerWebApp(app, deps.config.webDistDir);
  return app;
}

/** Vite writes every file of assets/ under a name holding its content hash: a changed file is a new address. */
const HASHED_ASSETS = /^assets[\\/]/;

/**
 * Unknown /api paths are JSON 404s; every other GET serves the single-page app so its router can take over.
 * HTML and unhashed files are revalidated on every load (no-cache, with ETag and Last-Modified) so a new release
 * is picked up at once; hashed assets never change and are cached for a year.
 */
async function registerWebApp(app: FastifyInstance, distDir: string) {
  const indexFile = path.join(distDir, 'index.html');
  const hasWeb = fs.existsSync(indexFile);
  if (hasWeb) {
    await app.register(fastifyStatic, {
      root: distDir,
      wildcard: false,
      index: false,
      setHeaders: (reply, filePath) => {
        const hashed = HASHED_ASSETS.test(path.relative(distDir, filePath));
        reply.header('Cache-Control', hashed ? 'public, max-age=31536000, immutable' : 'no-cache');
      },
    });
  }
  app.setNotFoundHandler((req, reply) => {
    if (looksLikeProgram(req.url) || (req.method !== 'GET' && req.method !== 'HEAD')) {
      return reply.code(404).send({ error: 'Not found', code: 'not_found' });
    }
    if (!hasWeb) {
      return reply
        .code(503)
        .type('text/plain')
        .send('The web app is not built. Run `npm run build` (npm start does it for you).');
    }
    return reply.sendFile('index.html');
  });
}

/**
 * Whether an address that matched no route was meant for a program, read as leniently as a person would (decoded,
 * any case, repeated slashes): such a caller wants a JSON 404, not the web app's page.
 */
function looksLikeProgram(url: string): boolean {
  let pathname = url.split('?')[0] ?? '';
  try {
    pathname = decodeURIComponent(pathname);
  } catch {
    // A malformed escape is left as written.
  }
  const normalized = pathname.toLowerCase().replace(/\/{2,}/g, '/');
  return PROGRAM_PREFIXES.some((prefix) => normalized === prefix || normalized.startsWith(`${prefix}/`));
}

/**
 * Addresses programs call (the API, SCIM, MCP, and the well-known metadata an MCP or OAuth client probes after a
 * 401): an unknown one answers a JSON 404, never the web app's page, which a client would try to parse.
 */
const PROGRAM_PREFIXES = ['/api', '/scim', '/mcp', '/.well-known'];
