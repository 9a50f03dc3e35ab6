import type { QueryClient } from '@tanstack/react-query';
import { QA_BATCH_MAX, type AnswerEntryView, type SessionDetailView } from '../../../common/schemas/qa';
import { toast } from '../../components/ui/use-toast';
import { errorMessage } from '../../lib/api';
import { askQuestion } from './api/ask-question';
import { askQuestions } from './api/ask-questions';
import { createSession } from './api/create-session';
import { BULK_IMPORT_FAILED, importQuestionnaire } from './api/import-questionnaire';
import { renameSession } from './api/rename-session';
import {
  answeredMessage,
  assessmentMessage,
  chatFromSession,
  EMPTY_CHAT,
  failedMessage,
  getChat,
  loadingMessage,
  NEW_CHAT_TITLE,
  sendingStartsNewChat,
  updateChat,
  type ChatMessage,
} from './chat-store';
import { checkComposerText } from './composer-check';
import { sessionTitleFrom } from './split-questions';
import { invalidateAfterAsking, invalidateAssessments } from '../../app/invalidate';

async function ensureSession(key: string): Promise<string> {
  const existing = getChat(key).sessionId;
  if (existing) return existing;
  const sessionId = await createSession({ title: NEW_CHAT_TITLE });
  updateChat(key, (chat) => ({ ...chat, sessionId, titled: false }));
  return sessionId;
}

function fill(key: string, placeholders: readonly ChatMessage[], entries: readonly AnswerEntryView[]): void {
  const byId = new Map(placeholders.map((message, index) => [message.id, entries[index]] as const));
  const last = entries.at(-1);
  updateChat(key, (chat) => ({
    ...chat,
    messages: chat.messages.map((message) => {
      const entry = byId.get(message.id);
      return entry ? answeredMessage(message, entry) : message;
    }),
    lastAsked: last ? { question: last.question, matches: last.matches } : chat.lastAsked,
  }));
}

/** Titles a new session after its first question; a failure only leaves the title 'New Chat'. */
async function titleSession(key: string, sessionId: string, firstQuestion: string): Promise<void> {
  if (getChat(key).titled) return;
  const title = sessionTitleFrom(firstQuestion);
  updateChat(key, (chat) => (chat.sessionId === sessionId ? { ...chat, titled: true, title } : chat));
  try {
    await renameSession(sessionId, title);
  } catch (error) {
    console.warn('Could not title the chat session', error);
  }
}

/**
 * PRODUCT §7: a question that could not be answered stays in the chat, marked with the reason and offering Retry,
 * and the text sent comes back to the composer unless something new was typed there meanwhile.
 */
function markFailed(key: string, placeholders: readonly ChatMessage[], reason: string, text: string | null): void {
  const ids = new Set(placeholders.map((message) => message.id));
  updateChat(key, (chat) => ({
    ...chat,
    messages: chat.messages.map((message) =>
      ids.has(message.id) && message.isLoading ? failedMessage(message, reason) : message,
    ),
    draft: text !== null && chat.draft.trim() === '' ? text : chat.draft,
  }));
}

function failureToast(title: string, error: unknown): void {
  const message = errorMessage(error, title);
  toast({ title, description: message === title ? undefined : message, variant: 'destructive' });
}

/**
 * Answers the questions in calls of at most QA_BATCH_MAX, filling each placeholder as its batch arrives, so a long
 * paste shows answers while the rest is still being worked on. A lone typed question goes through /api/qa/ask.
 */
async function answerInBatches(
  key: string,
  questions: readonly string[],
  placeholders: readonly ChatMessage[],
  sessionId: string,
  { asBatch, afterFirst }: { asBatch: boolean; afterFirst?: () => Promise<void> },
): Promise<void> {
  for (let start = 0; start < questions.length; start += QA_BATCH_MAX) {
    const batch = questions.slice(start, start + QA_BATCH_MAX);
    const [first] = batch;
    const entries =
      asBatch || first === undefined
        ? await askQuestions({ questions: batch, sessionId })
        : [await askQuestion({ question: first, sessionId })];
    fill(key, placeholders.slice(start, start + QA_BATCH_MAX), entries);
    if (start === 0) await afterFirst?.();
  }
}

async function answer(
  key: string,
  text: string,
  questions: string[],
  placeholders: ChatMessage[],
  queryClient: QueryClient,
) {
  const several = questions.length > 1;
  try {
    const sessionId = await ensureSession(key);
    const [first] = questions;
    await answerInBatches(key, questions, placeholders, sessionId, {
      asBatch: several,
      afterFirst: first === undefined ? undefined : () => titleSession(key, sessionId, first),
    });
  } catch (error) {
    const title = several ? 'Failed to process questions' : 'Failed to process question';
    markFailed(key, placeholders, errorMessage(error, title), text);
    failureToast(title, error);
  } finally {
    updateChat(key, (chat) => ({ ...chat, busy: false }));
    void invalidateAfterAsking(queryClient);
  }
}

/**
 * PRODUCT §7 send: the text becomes one question or a batch (§7), each question whole (checkComposerText); each gets
 * its message with a loading placeholder at once. In a bulk assessment's chat, or someone else's, the questions
 * start a new chat. Returns false, changing nothing, when there is nothing to ask, too much at once, or a request
 * already in flight.
 */
export function sendQuestions(key: string, text: string, queryClient: QueryClient): boolean {
  const { questions, tooMany } = checkComposerText(text);
  const chat = getChat(key);
  if (questions.length === 0 || tooMany || chat.busy || chat.saving) return false;
  const placeholders = questions.map(loadingMessage);
  updateChat(key, (current) => {
    const base = sendingStartsNewChat(current) ? { ...EMPTY_CHAT, draft: current.draft } : current;
    return { ...base, busy: true, messages: [...base.messages, ...placeholders] };
  });
  void answer(key, text, questions, placeholders, queryClient);
  return true;
}

/** Asks a question that failed once more, in its place in the chat. */
export async function retryQuestion(key: string, messageId: string, queryClient: QueryClient): Promise<void> {
  const chat = getChat(key);
  const message = chat.messages.find((candidate) => candidate.id === messageId);
  if (!message || message.failed === null || chat.busy || chat.saving) return;
  const placeholder: ChatMessage = { ...message, isLoading: true, failed: null };
  updateChat(key, (current) => ({
    ...current,
    busy: true,
    messages: current.messages.map((candidate) => (candidate.id === messageId ? placeholder : candidate)),
  }));
  try {
    const sessionId = await ensureSession(key);
    const entry = await askQuestion({ question: message.question, sessionId });
    fill(key, [placeholder], [entry]);
    await titleSession(key, sessionId, getChat(key).messages[0]?.question ?? message.question);
  } catch (error) {
    markFailed(key, [placeholder], errorMessage(error, 'Failed to process question'), null);
    failureToast('Failed to process question', error);
  } finally {
    updateChat(key, (current) => ({ ...current, busy: false }));
    void invalidateAfterAsking(queryClient);
  }
}

/** Keeps the composer's text with the chat. */
export function setDraft(key: string, draft: string): void {
  if (getChat(key).draft !== draft) updateChat(key, (chat) => ({ ...chat, draft }));
}

/** Shows a chat reopened from the server in place of the current one (which the server already holds). */
export function openSession(key: string, detail: SessionDetailView, userId: string | null): void {
  updateChat(key, (chat) => chatFromSession(detail, userId, chat.draft));
}

/**
 * PRODUCT §7 save: one ask call per finished message carrying the answer already shown (the server records each only
 * once per session), then the session title.
 */
async function saveChat(sessionId: string, title: string | null, messages: readonly ChatMessage[]): Promise<void> {
  for (const message of messages) {
    if (message.answer === null || message.answerType === null) continue;
    await askQuestion({
      question: message.question,
      sessionId,
      existingAnswer: {
        answer: message.answer,
        answerType: message.answerType,
        confidence: message.confidence,
        sources: message.sources,
      },
    });
  }
  const first = messages[0];
  // A bulk assessment keeps its customer title; a chat is titled after its first question.
  const finalTitle = title ?? (first ? sessionTitleFrom(first.question) : null);
  if (finalTitle) await renameSession(sessionId, finalTitle);
}

/**
 * PRODUCT 'New Chat' / clear chat: saves the current chat to history, then empties it; the next question starts a
 * new 'New Chat' session. A failed save warns but still clears.
 */
export async function startNewChat(key: string, queryClient: QueryClient): Promise<void> {
  const chat = getChat(key);
  if (chat.busy || chat.saving) return;
  const finished = chat.messages.filter((message) => !message.isLoading && message.answer !== null);
  if (chat.sessionId && finished.length > 0) {
    updateChat(key, (current) => ({ ...current, saving: true }));
    try {
      await saveChat(chat.sessionId, chat.title, finished);
    } catch (error) {
      console.warn('Could not save the chat', error);
      toast({
        title: 'Save Warning',
        description: 'Current chat may not have been saved to history',
        variant: 'destructive',
      });
    }
    void invalidateAfterAsking(queryClient);
  }
  updateChat(key, (current) => ({ ...EMPTY_CHAT, draft: current.draft }));
}

/** Marks a message whose question was just added to the library, so it stops offering to add it again. */
export function markAddedToLibrary(key: string, messageId: string): void {
  updateChat(key, (chat) => ({
    ...chat,
    messages: chat.messages.map((message) =>
      message.id === messageId ? { ...message, addedToLibrary: true } : message,
    ),
  }));
}

/**
 * The specification bulk import start, for real: a session 'Bulk Assessment - {customer}' (carrying the customer name) replaces
 * the chat, the file becomes an assessment answered in the background, and the chat's one message follows its
 * progress. The caller saves and clears the previous chat first.
 */
export async function startBulkAssessment(
  key: string,
  customerName: string,
  file: File,
  queryClient: QueryClient,
): Promise<void> {
  const chat = getChat(key);
  if (chat.busy || chat.saving) return;
  const message = assessmentMessage(customerName, file.name);
  const bulkTitle = `Bulk Assessment - ${customerName}`;
  updateChat(key, (current) => ({ ...EMPTY_CHAT, draft: current.draft, busy: true, messages: [message] }));
  const fail = (error: unknown, description: string) => {
    console.warn('Could not start the bulk assessment', error);
    updateChat(key, (current) => ({ ...EMPTY_CHAT, draft: current.draft }));
    toast({ title: 'Import Failed', description, variant: 'destructive' });
  };
  let sessionId: string;
  try {
    sessionId = await createSession({ title: bulkTitle, customerName });
  } catch (error) {
    fail(error, BULK_IMPORT_FAILED);
    return;
  }
  // The session is titled after the customer, not after its first question.
  updateChat(key, (current) => ({ ...current, sessionId, titled: true, title: bulkTitle }));
  try {
    const result = await importQuestionnaire({ file, customerName, sessionId });
    updateChat(key, (current) => ({
      ...current,
      busy: false,
      messages: current.messages.map((m) =>
        m.id === message.id && m.assessment
          ? {
              ...m,
              isLoading: false,
              assessment: { ...m.assessment, id: result.id, totalQuestions: result.totalQuestions },
            }
          : m,
      ),
    }));
  } catch (error) {
    // The server's sentence says what is wrong with the file (no questions found, not a spreadsheet...).
    fail(error, errorMessage(error, BULK_IMPORT_FAILED));
    return;
  }
  toast({ title: 'Bulk Import Started', description: `Processing assessment for ${customerName}` });
  // The Bulk Assessments list gains the new assessment.
  void invalidateAssessments(queryClient);
}
