import type { FastifyBaseLogger } from 'fastify';
import {
  isJSONRPCErrorResponse,
  isJSONRPCRequest,
  isJSONRPCResultResponse,
  type JSONRPCMessage,
  type RequestId,
} from '@modelcontextprotocol/sdk/types.js';
import type { DbOrTx } from '../../db/client';
import type { SessionUser } from '../../context';
import { writeAudit } from '../audit/service';

/** Text kept in an audit row (a question, a search, an error): enough to recognise it, never a pasted essay. */
export const AUDIT_TEXT_MAX = 200;

export const capText = (text: string, max = AUDIT_TEXT_MAX) => (text.length > max ? `${text.slice(0, max)}…` : text);

/** What a tool's handler tells the audit about its call: where it ran and a short summary. */
export type CallNote = { workspaceId: string | null; summary: Record<string, unknown> };

const UNEXPECTED = 'Something went wrong on our side. Please try again.';

/**
 * The audit trail of the tool calls in one MCP request: one `mcp_tool_called` row per `tools/call`, whatever became
 * of it (answered, refused, not found, arguments the SDK rejected before any handler ran), written before its
 * answer leaves so that no call is answered without its row. The handler adds what only it knows (`note`); the
 * rest is read from the request and the answer.
 */
export class ToolCallAudit {
  private readonly tools = new Map<RequestId, string>();
  private readonly notes = new Map<RequestId, CallNote>();

  constructor(
    private readonly db: DbOrTx,
    private readonly caller: SessionUser,
    private readonly log: FastifyBaseLogger,
    messages: readonly unknown[],
  ) {
    for (const m of messages) {
      if (isJSONRPCRequest(m) && m.method === 'tools/call') {
        const name = (m.params as { name?: unknown } | undefined)?.name;
        this.tools.set(m.id, typeof name === 'string' ? capText(name, 100) : '(none)');
      }
    }
  }

  note(id: RequestId, note: CallNote): void {
    this.notes.set(id, note);
  }

  /**
   * The message to send in place of `message`: itself once a tool call's row is written, or, should the row fail,
   * an error result instead of an answer nobody could trace.
   */
  async beforeSend(message: JSONRPCMessage): Promise<JSONRPCMessage> {
    const answered = isJSONRPCResultResponse(message) || isJSONRPCErrorResponse(message);
    if (!answered || message.id === undefined) return message;
    const tool = this.tools.get(message.id);
    if (tool === undefined) return message;
    this.tools.delete(message.id);
    const note = this.notes.get(message.id);
    const failure = failureOf(message);
    try {
      await writeAudit(this.db, {
        organizationId: this.caller.organizationId,
        userId: this.caller.userId,
        workspaceId: note?.workspaceId ?? null,
        action: 'mcp_tool_called',
        entityType: 'mcp_tool',
        entityId: null,
        details: {
          tool,
          apiTokenId: this.caller.apiTokenId ?? null,
          workspaceId: note?.workspaceId ?? null,
          outcome: failure === null ? 'ok' : 'error',
          ...note?.summary,
          ...(failure !== null && { error: capText(failure) }),
        },
      });
      return message;
    } catch (err) {
      this.log.error({ err, tool }, 'could not audit an MCP tool call; its answer was withheld');
      return {
        jsonrpc: '2.0',
        id: message.id,
        result: { content: [{ type: 'text', text: UNEXPECTED }], isError: true },
      };
    }
  }
}

/** The sentence a failed call answered with, or null when it succeeded. */
function failureOf(message: JSONRPCMessage): string | null {
  if (isJSONRPCErrorResponse(message)) return message.error.message;
  if (!isJSONRPCResultResponse(message) || message.result.isError !== true) return null;
  const content = message.result.content;
  const first = Array.isArray(content) ? (content[0] as { text?: unknown } | undefined) : undefined;
  return typeof first?.text === 'string' ? first.text : 'error';
}
