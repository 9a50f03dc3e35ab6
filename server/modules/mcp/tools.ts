import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import {
  AskQuestionInput,
  AskQuestionOutput,
  GetAssessmentAnswersInput,
  GetAssessmentAnswersOutput,
  ListAssessmentsInput,
  ListAssessmentsOutput,
  ListWorkspacesInput,
  ListWorkspacesOutput,
  SearchLibraryInput,
  SearchLibraryOutput,
} from '../../../common/schemas/mcp';
import * as qa from '../qa/service';
import { listBatches } from '../assessments/service';
import { getDetail } from '../assessments/review';
import { listWorkspaces } from '../workspaces/service';
import { capText } from './call-audit';
import { searchLibrary } from './library-search';
import { presentAssessment, presentAssessmentQuestion, presentSource } from './presenters';
import { runTool, type McpCaller } from './run-tool';

const INSTRUCTIONS =
  "Verity answers security questionnaires from the organization's knowledge library (approved answers) and its " +
  'documents. ask_question gives the answer Verity would give, with its type (canonical = approved library answer; ' +
  'draft; generated = written from documents; unknown = nothing covers it, never invented), confidence and sources. ' +
  'search_library finds library entries by words. list_assessments and get_assessment_answers read questionnaires ' +
  'being answered and reviewed. Data lives in workspaces: every tool takes an optional workspaceId (list_workspaces).';

const readOnly = { readOnlyHint: true, openWorldHint: false } as const;

/**
 * The MCP server for one request (the transport is stateless: a new server answers each POST, so any process of
 * the deployment can take any request). Every tool runs as the API token's caller, through the same services and
 * policy actions as the /api routes that do the same thing.
 */
export function createMcpServer(c: McpCaller): McpServer {
  const server = new McpServer({ name: 'verity', version: '1.0.0' }, { instructions: INSTRUCTIONS });

  server.registerTool(
    'list_workspaces',
    {
      title: 'List workspaces',
      description:
        "The organization's workspaces (each holds its own library, documents and assessments). The default one " +
        'is used by the other tools when they are given no workspaceId.',
      inputSchema: ListWorkspacesInput,
      outputSchema: ListWorkspacesOutput,
      annotations: readOnly,
    },
    (_args, extra) =>
      runTool(c, extra, 'list_workspaces', 'workspaces:read', async (run) => {
        const rows = await listWorkspaces(run.user);
        const structured: ListWorkspacesOutput = {
          workspaces: rows.map((w, i) => ({ id: w.id, name: w.name, description: w.description, isDefault: i === 0 })),
        };
        run.summary.results = rows.length;
        return structured;
      }),
  );

  server.registerTool(
    'ask_question',
    {
      title: 'Ask a security question',
      description:
        "Answers one security-questionnaire question from the workspace's library and documents, as the Ask screen " +
        'does: the answer, its type (canonical, draft, generated or unknown), a confidence of 0–100 and the library ' +
        "entries or document passages it came from. The question is kept in the caller's chat history (and, when " +
        'nothing answers it, shows up as a task for the library team). Needs the contributor role or above.',
      inputSchema: AskQuestionInput,
      outputSchema: AskQuestionOutput,
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
    },
    ({ question, workspaceId }, extra) =>
      runTool(c, extra, 'ask_question', 'qa:ask', async (run) => {
        run.summary.question = capText(question);
        const ctx = await run.tenant(workspaceId);
        const entry = await qa.ask(c.deps, ctx, { question });
        Object.assign(run.summary, { answerType: entry.answerType, confidence: entry.confidence, qaEntryId: entry.id });
        const structured: AskQuestionOutput = {
          question: entry.question,
          answer: entry.answer,
          answerType: entry.answerType,
          confidence: entry.confidence,
          sources: entry.sources.map(presentSource),
          lastVerified: entry.lastVerified,
          note: entry.note ?? null,
          workspaceId: ctx.workspaceId,
        };
        return structured;
      }),
  );

  server.registerTool(
    'search_library',
    {
      title: 'Search the knowledge library',
      description:
        "Finds approved and draft entries of the workspace's knowledge library whose question or answer holds " +
        'the given words (the Library screen search), best ranked first.',
      inputSchema: SearchLibraryInput,
      outputSchema: SearchLibraryOutput,
      annotations: readOnly,
    },
    ({ query, limit, workspaceId }, extra) =>
      runTool(c, extra, 'search_library', 'knowledge:read', async (run) => {
        run.summary.query = capText(query);
        const ctx = await run.tenant(workspaceId);
        const found = await searchLibrary(ctx, query, limit);
        run.summary.results = found.entries.length;
        const structured: SearchLibraryOutput = { ...found, workspaceId: ctx.workspaceId };
        return structured;
      }),
  );

  server.registerTool(
    'list_assessments',
    {
      title: 'List assessments',
      description:
        "The workspace's assessments (questionnaires being answered), newest first, with their progress: " +
        'questions answered, needing review, and in each review state, and the due date.',
      inputSchema: ListAssessmentsInput,
      outputSchema: ListAssessmentsOutput,
      annotations: readOnly,
    },
    ({ workspaceId }, extra) =>
      runTool(c, extra, 'list_assessments', 'assessments:read', async (run) => {
        const ctx = await run.tenant(workspaceId);
        const assessments = (await listBatches(ctx)).map(presentAssessment);
        run.summary.results = assessments.length;
        const structured: ListAssessmentsOutput = { assessments, workspaceId: ctx.workspaceId };
        return structured;
      }),
  );

  server.registerTool(
    'get_assessment_answers',
    {
      title: "Read an assessment's answers",
      description:
        "An assessment's questions in questionnaire order with their answers, answer type, confidence, review " +
        'state and sources; optionally only those in one review state (e.g. needs_answer), a page at a time.',
      inputSchema: GetAssessmentAnswersInput,
      outputSchema: GetAssessmentAnswersOutput,
      annotations: readOnly,
    },
    ({ assessmentId, state, limit, offset, workspaceId }, extra) =>
      runTool(c, extra, 'get_assessment_answers', 'assessments:read', async (run) => {
        Object.assign(run.summary, { assessmentId, ...(state && { state }) });
        const ctx = await run.tenant(workspaceId);
        const detail = await getDetail(ctx, assessmentId);
        const matching = state ? detail.questions.filter((q) => q.reviewState === state) : detail.questions;
        const questions = matching.slice(offset, offset + limit).map(presentAssessmentQuestion);
        run.summary.results = questions.length;
        const structured: GetAssessmentAnswersOutput = {
          assessment: presentAssessment(detail.batch),
          total: matching.length,
          offset,
          questions,
          workspaceId: ctx.workspaceId,
        };
        return structured;
      }),
  );

  return server;
}
