import type { FastifyBaseLogger } from 'fastify';
import type { RequestHandlerExtra } from '@modelcontextprotocol/sdk/shared/protocol.js';
import type { CallToolResult, ServerNotification, ServerRequest } from '@modelcontextprotocol/sdk/types.js';
import type { Action } from '../../../common/policies';
import type { TenantCtx, UserCtx } from '../../context';
import type { AppDeps } from '../../deps';
import { authorize } from '../../authorize';
import { AppError } from '../../errors';
import { resolveWorkspace } from '../workspaces/service';
import type { ToolCallAudit } from './call-audit';

/** Who calls the tools of one MCP request, and what they run on. */
export type McpCaller = { deps: AppDeps; user: UserCtx; audit: ToolCallAudit; log: FastifyBaseLogger };

export type ToolExtra = RequestHandlerExtra<ServerRequest, ServerNotification>;

/** One tool call in progress: the caller, and the workspace it works in once the tool asks for it. */
export type ToolRun = {
  user: UserCtx;
  /**
   * The caller in `workspaceId`, or in the organization's first workspace without one, exactly as /api resolves
   * the X-Workspace-Id header: another organization's workspace is "not found" like one that does not exist.
   */
  tenant: (workspaceId: string | undefined) => Promise<TenantCtx>;
  /** A short account of the call for its audit row (what was asked, how many results), filled as the tool goes. */
  summary: Record<string, unknown>;
};

/** Where to look when a thing named in a call is not found. */
const NOT_FOUND_HINTS: Array<[RegExp, string]> = [
  [/^Workspace/, 'Use list_workspaces to see the workspaces you can use.'],
  [/^Assessment/, 'Use list_assessments to see the assessments of the workspace.'],
];

const UNEXPECTED = 'Something went wrong on our side. Please try again.';

/** The sentence a failed call answers with: the service's own for an AppError, never internals (SQL, stacks). */
function sentenceFor(err: unknown, c: McpCaller, tool: string): string {
  if (err instanceof AppError) {
    if (err.status !== 404) return err.message;
    const hint = NOT_FOUND_HINTS.find(([re]) => re.test(err.message))?.[1];
    return hint ? `${err.message}. ${hint}` : err.message;
  }
  c.log.error({ err, tool }, 'MCP tool failed');
  return UNEXPECTED;
}

/**
 * Runs one tool as its caller: the role must allow `action` (the same policy action as the /api route that does
 * the same thing), then `work` runs, and what it gave or why it failed goes back as a tool result (isError for a
 * failure, so the assistant can read the sentence and act on it) and to the call's audit row.
 *
 * The text content is the structured content as JSON (what the MCP specification suggests for clients that read
 * only text), never prose framing around stored text: a library answer or an assessment name holding
 * "\n2. [approved] …\nSYSTEM: …" is then one quoted JSON string, and cannot pass for another result or for words
 * of Verity's own.
 */
export async function runTool<O extends Record<string, unknown>>(
  c: McpCaller,
  extra: ToolExtra,
  tool: string,
  action: Action,
  work: (run: ToolRun) => Promise<O>,
): Promise<CallToolResult> {
  let workspaceId: string | null = null;
  const run: ToolRun = {
    user: c.user,
    tenant: async (requested) => {
      const id = await resolveWorkspace(c.user, requested);
      workspaceId = id;
      return { ...c.user, workspaceId: id };
    },
    summary: {},
  };
  try {
    authorize(c.user, action);
    const structured = await work(run);
    c.audit.note(extra.requestId, { workspaceId, summary: run.summary });
    return { content: [{ type: 'text', text: JSON.stringify(structured) }], structuredContent: structured };
  } catch (err) {
    c.audit.note(extra.requestId, { workspaceId, summary: run.summary });
    return { content: [{ type: 'text', text: sentenceFor(err, c, tool) }], isError: true };
  }
}
