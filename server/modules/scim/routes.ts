import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodType } from 'zod';
import { ScimGetQuery, ScimGroupBody, ScimListQuery, ScimPatchBody, ScimUserBody } from '../../../common/schemas/scim';
import { isAddressKey, requireScimCaller, resolveScimCaller, scimCtx, scimRateKey } from './auth';
import { fromZod, registerScimErrors, SCIM_CONTENT_TYPE, ScimError } from './errors';
import { canonicalKeys, registerScimJsonParser } from './body';
import { resourceTypes, schemas, serviceProviderConfig } from './discovery';
import { listResponse } from './presenters';
import * as scimUsers from './users';
import * as scimGroups from './groups';
import { scimAdminRoutes } from './admin-routes';

/** A sync pushes thousands of calls in bursts; a limit per token keeps one organization from starving the others. */
export const SCIM_REQUESTS_PER_MINUTE = 1200;
/**
 * Calls whose token does not authenticate, per address: enough for an administrator fixing a mistyped token, too
 * few to make guessing or flooding the token lookup worth anyone's while.
 */
export const SCIM_UNAUTHENTICATED_PER_MINUTE = 60;

function parse<T>(schema: ZodType<T>, value: unknown): T {
  const result = schema.safeParse(value);
  if (!result.success) throw fromZod(result.error);
  return result.data;
}

/** Attribute names are case-insensitive (RFC 7643 §2.1): bodies are read with their keys put in canonical case. */
const userBody = (req: FastifyRequest) =>
  parse(ScimUserBody, canonicalKeys(req.body, ['schemas', 'userName', 'externalId', 'name', 'emails', 'active']));
const groupBody = (req: FastifyRequest) =>
  parse(ScimGroupBody, canonicalKeys(req.body, ['schemas', 'displayName', 'externalId', 'members']));
const patchBody = (req: FastifyRequest) => parse(ScimPatchBody, canonicalKeys(req.body, ['schemas', 'Operations']));
const listQuery = (req: FastifyRequest) => parse(ScimListQuery, req.query);
const getQuery = (req: FastifyRequest) => parse(ScimGetQuery, req.query);

const send = (reply: FastifyReply, status: number, payload: unknown) =>
  reply.code(status).type(SCIM_CONTENT_TYPE).send(payload);

const idOf = (req: FastifyRequest) => (req.params as { id: string }).id;

/**
 * SCIM 2.0 (RFC 7643/7644) under /scim/v2, for identity providers that provision the organization's people: its
 * own bearer tokens (not sessions or API tokens), its own media type and error schema, outside the /api access
 * hooks. Everything a token does stays inside its organization.
 */
async function scimProtocolRoutes(app: FastifyInstance) {
  registerScimJsonParser(app);
  registerScimErrors(app);
  // Who is calling decides which budget the call spends (the token's, or its address's), so the token is looked up
  // first; the refusal of an unknown caller waits until the limit has counted it, and comes before the body is read.
  // One limiter for the whole scope (unknown addresses included): a budget is the caller's, not one per route.
  app.addHook('onRequest', resolveScimCaller);
  app.addHook(
    'onRequest',
    app.rateLimit({
      max: (_req, key) => (isAddressKey(key) ? SCIM_UNAUTHENTICATED_PER_MINUTE : SCIM_REQUESTS_PER_MINUTE),
      timeWindow: '1 minute',
      keyGenerator: scimRateKey,
    }),
  );
  app.addHook('preParsing', async (req, _reply, payload) => {
    requireScimCaller(req);
    return payload;
  });
  const opts = {
    // A group's full member list can be long; the API's default limit is sized for forms.
    bodyLimit: 1024 * 1024,
    // Not part of Verity's own API (its OpenAPI document): the SCIM RFCs describe these.
    schema: { hide: true },
  };

  app.get('/ServiceProviderConfig', opts, async (req, reply) =>
    send(reply, 200, serviceProviderConfig(scimCtx(req).baseUrl)),
  );
  app.get('/ResourceTypes', opts, async (req, reply) => {
    const types = resourceTypes(scimCtx(req).baseUrl);
    return send(reply, 200, listResponse(types, types.length, 1));
  });
  app.get('/ResourceTypes/:id', opts, async (req, reply) => {
    const type = resourceTypes(scimCtx(req).baseUrl).find((t) => t.id === idOf(req));
    if (!type) throw new ScimError(404, `Resource type ${idOf(req)} not found`);
    return send(reply, 200, type);
  });
  app.get('/Schemas', opts, async (req, reply) => {
    const all = schemas(scimCtx(req).baseUrl);
    return send(reply, 200, listResponse(all, all.length, 1));
  });
  app.get('/Schemas/:id', opts, async (req, reply) => {
    const schema = schemas(scimCtx(req).baseUrl).find((s) => s.id === idOf(req));
    if (!schema) throw new ScimError(404, `Schema ${idOf(req)} not found`);
    return send(reply, 200, schema);
  });

  app.get('/Users', opts, async (req, reply) =>
    send(reply, 200, await scimUsers.listScimUsers(scimCtx(req), listQuery(req))),
  );
  app.get('/Users/:id', opts, async (req, reply) => {
    getQuery(req);
    return send(reply, 200, await scimUsers.getScimUser(scimCtx(req), idOf(req)));
  });
  app.post('/Users', opts, async (req, reply) => {
    const user = await scimUsers.createScimUser(scimCtx(req), userBody(req));
    return send(reply.header('Location', user.meta.location), 201, user);
  });
  app.put('/Users/:id', opts, async (req, reply) =>
    send(reply, 200, await scimUsers.replaceScimUser(scimCtx(req), idOf(req), userBody(req))),
  );
  app.patch('/Users/:id', opts, async (req, reply) =>
    send(reply, 200, await scimUsers.patchScimUser(scimCtx(req), idOf(req), patchBody(req).Operations)),
  );
  app.delete('/Users/:id', opts, async (req, reply) => {
    await scimUsers.deleteScimUser(scimCtx(req), idOf(req));
    return reply.code(204).send();
  });

  app.get('/Groups', opts, async (req, reply) =>
    send(reply, 200, await scimGroups.listScimGroups(scimCtx(req), listQuery(req))),
  );
  app.get('/Groups/:id', opts, async (req, reply) =>
    send(reply, 200, await scimGroups.getScimGroup(scimCtx(req), idOf(req), getQuery(req).excludedAttributes)),
  );
  app.post('/Groups', opts, async (req, reply) => {
    const group = await scimGroups.createScimGroup(scimCtx(req), groupBody(req));
    return send(reply.header('Location', group.meta.location), 201, group);
  });
  app.put('/Groups/:id', opts, async (req, reply) =>
    send(reply, 200, await scimGroups.replaceScimGroup(scimCtx(req), idOf(req), groupBody(req))),
  );
  app.patch('/Groups/:id', opts, async (req, reply) => {
    const { Operations } = patchBody(req);
    const group = await scimGroups.patchScimGroup(
      scimCtx(req),
      idOf(req),
      Operations,
      getQuery(req).excludedAttributes,
    );
    return send(reply, 200, group);
  });
  app.delete('/Groups/:id', opts, async (req, reply) => {
    await scimGroups.deleteScimGroup(scimCtx(req), idOf(req));
    return reply.code(204).send();
  });
}

/** The SCIM endpoints (/scim/v2) and the admin's SCIM token routes (/api/admin/scim). */
export async function scimRoutes(app: FastifyInstance) {
  await app.register(scimProtocolRoutes, { prefix: '/scim/v2' });
  await app.register(scimAdminRoutes);
}
