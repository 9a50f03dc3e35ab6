import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type { UserCtx } from '../../context';
import { DEFAULT_BODY_LIMIT } from '../../../common/constants';
import { authenticateMcp, mcpCallerOf } from './authenticate';
import { ToolCallAudit } from './call-audit';
import { createMcpServer } from './tools';

/**
 * Requests one API token may make to /mcp a minute, in each server process: one tenant's assistant cannot starve
 * the others. A tool call is one request (a client's start takes two or three more); asking a question also
 * counts against the question limits every asker shares (qa/limits.ts).
 */
export const MCP_REQUESTS_PER_MINUTE = 120;

const jsonRpcError = (code: number, message: string) => ({ jsonrpc: '2.0', error: { code, message }, id: null });

/** Stateless MCP has no stream to open (GET) and no session to end (DELETE): the transport's spec says 405. */
function methodNotAllowed(_req: FastifyRequest, reply: FastifyReply) {
  return reply
    .code(405)
    .header('Allow', 'POST')
    .send(jsonRpcError(-32000, 'Method not allowed. This MCP server is stateless: send each message as a POST.'));
}

/**
 * The MCP server over streamable HTTP at /mcp (the official SDK), stateless: each POST gets a new server and
 * transport, so any process behind a load balancer can answer it and nothing is kept between requests. Not under
 * /api, so it authenticates and limits itself (API tokens only, see authenticate.ts); its tools authorize each call
 * with the policy actions of the matching /api routes.
 */
export async function mcpRoutes(app: FastifyInstance) {
  const { deps } = app;

  app.post(
    '/mcp',
    {
      bodyLimit: DEFAULT_BODY_LIMIT,
      onRequest: authenticateMcp,
      config: {
        rateLimit: {
          max: MCP_REQUESTS_PER_MINUTE,
          timeWindow: '1 minute',
          // After authenticateMcp (onRequest), so the budget is the token's, whatever address it calls from.
          hook: 'preHandler',
          keyGenerator: (req: FastifyRequest) => `mcp:${mcpCallerOf(req).sessionHash}`,
        },
      },
    },
    async (req, reply) => {
      const caller = mcpCallerOf(req);
      const body: unknown = req.body;
      // Batches left the protocol in 2025-06-18; one message a request also keeps a call one rate-limit step.
      if (Array.isArray(body)) {
        return reply
          .code(400)
          .send(jsonRpcError(-32600, 'Send one JSON-RPC message per request; batches are not supported.'));
      }
      const user: UserCtx = { ...caller, db: deps.db };
      const audit = new ToolCallAudit(deps.db, caller, req.log, [body]);
      const server = createMcpServer({ deps, user, audit, log: req.log });
      const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
      const send = transport.send.bind(transport);
      transport.send = async (message, options) => send(await audit.beforeSend(message), options);

      reply.hijack();
      reply.raw.on('close', () => {
        void transport.close();
        void server.close();
      });
      try {
        await server.connect(transport);
        await transport.handleRequest(req.raw, reply.raw, body);
      } catch (err) {
        req.log.error({ err }, 'MCP request failed');
        if (!reply.raw.headersSent) {
          reply.raw
            .writeHead(500, { 'Content-Type': 'application/json' })
            .end(JSON.stringify(jsonRpcError(-32603, 'Something went wrong on our side. Please try again.')));
        }
      }
      return reply;
    },
  );

  app.get('/mcp', methodNotAllowed);
  app.delete('/mcp', methodNotAllowed);
}
