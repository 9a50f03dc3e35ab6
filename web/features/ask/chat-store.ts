import { useSyncExternalStore } from 'react';
import type {
  AnswerEntryView,
  AnswerSource,
  AnswerType,
  SessionDetailView,
  TopMatch,
} from '../../../common/schemas/qa';

/** A bulk assessment started from the chat: the message follows its progress instead of holding an answer. */
export interface ChatAssessment {
  /** The assessment's id once the server has accepted the file; null while it is uploading. */
  id: string | null;
  customerName: string;
  fileName: string;
  totalQuestions: number;
}

/** PRODUCT §7 chat message (client side): a question and, once it arrives, its answer. */
export interface ChatMessage {
  id: string;
  question: string;
  /** When the question was sent (ISO). */
  timestamp: string;
  isLoading: boolean;
  answer: string | null;
  answerType: AnswerType | null;
  confidence: number;
  lastVerified: string | null;
  sources: AnswerSource[];
  /** Why only part of a very long question was read (the server says so with the answer). */
  note: string | null;
  /** An unanswered question whose answer was since added to the library from this message. */
  addedToLibrary: boolean;
  /** Set on the one message of a bulk assessment chat. */
  assessment: ChatAssessment | null;
  /** Why the question could not be answered: the message stays, with Retry. */
  failed: string | null;
}

/** The chat of one workspace: its server session, messages and what the side panel shows for it. */
export interface ChatState {
  /** Created with the first question of a chat, so an unused chat leaves no empty session in the history. */
  sessionId: string | null;
  /** Whether the session already carries its first question as title. */
  titled: boolean;
  /** The session's title once it has one other than 'New Chat' (first question, or the bulk assessment's name). */
  title: string | null;
  messages: readonly ChatMessage[];
  /** A question is in flight: PRODUCT §7 ignores sends until it is answered. */
  busy: boolean;
  /** 'New Chat' is saving the current chat to history. */
  saving: boolean;
  /** The last question answered and the library entries closest to it (the panel's Top Matching Answers). */
  lastAsked: { question: string; matches: TopMatch[] } | null;
  /** Whose chat this is when it is someone else's, reopened from Chat History: it can be read, not asked in. */
  owner: string | null;
  /** The composer's text, kept with the chat so that it survives a failed send and a visit to another screen. */
  draft: string;
}

/** PRODUCT §12 default session title. */
export const NEW_CHAT_TITLE = 'New Chat';

export const EMPTY_CHAT: ChatState = {
  sessionId: null,
  titled: false,
  title: null,
  messages: [],
  busy: false,
  saving: false,
  lastAsked: null,
  owner: null,
  draft: '',
};

/**
 * Whether a question sent now starts a new chat: a bulk assessment's chat holds that assessment only, and someone
 * else's chat is theirs.
 */
export function sendingStartsNewChat(chat: ChatState): boolean {
  return chat.owner !== null || chat.messages.some((message) => message.assessment !== null);
}

// Chats live outside React, keyed by workspace: a question still being answered when the user opens another
// screen lands in its chat, and coming back shows the conversation as it was.
const chats = new Map<string, ChatState>();
const listeners = new Set<() => void>();

export function getChat(key: string): ChatState {
  return chats.get(key) ?? EMPTY_CHAT;
}

export function updateChat(key: string, change: (chat: ChatState) => ChatState): void {
  chats.set(key, change(getChat(key)));
  for (const listener of listeners) listener();
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** The chat of the workspace `key`, re-rendering on every change to it. */
export function useChatState(key: string): ChatState {
  const read = () => getChat(key);
  return useSyncExternalStore(subscribe, read, read);
}

let nextMessageId = 1;

export function loadingMessage(question: string): ChatMessage {
  return {
    id: `message-${String(nextMessageId++)}`,
    question,
    timestamp: new Date().toISOString(),
    isLoading: true,
    answer: null,
    answerType: null,
    confidence: 0,
    lastVerified: null,
    sources: [],
    note: null,
    addedToLibrary: false,
    assessment: null,
    failed: null,
  };
}

/** The message of a bulk assessment whose file is still uploading. */
export function assessmentMessage(customerName: string, fileName: string): ChatMessage {
  return { ...loadingMessage(fileName), assessment: { id: null, customerName, fileName, totalQuestions: 0 } };
}

/** PRODUCT §7: the placeholder takes the answer, its type, confidence and sources. */
export function answeredMessage(message: ChatMessage, entry: AnswerEntryView): ChatMessage {
  return {
    ...message,
    isLoading: false,
    answer: entry.answer,
    answerType: entry.answerType,
    confidence: entry.confidence,
    lastVerified: entry.lastVerified,
    sources: entry.sources,
    note: entry.note ?? null,
    failed: null,
  };
}

/** A question that could not be answered: it stays in the chat with the reason, to be retried. */
export function failedMessage(message: ChatMessage, reason: string): ChatMessage {
  return { ...message, isLoading: false, failed: reason };
}

/**
 * A chat reopened from the server (PRODUCT §7): its questions and answers, or its bulk assessment's progress. A chat
 * of someone other than `userId` is shown as theirs. The composer text typed so far is kept.
 */
export function chatFromSession(detail: SessionDetailView, userId: string | null, draft = ''): ChatState {
  const { session, entries, assessment } = detail;
  const messages = assessment
    ? [
        {
          ...loadingMessage(assessment.fileName),
          timestamp: session.createdAt,
          isLoading: false,
          assessment: { ...assessment },
        },
      ]
    : entries.map((entry) => ({
        ...answeredMessage(loadingMessage(entry.question), entry),
        timestamp: entry.createdAt,
      }));
  // A reopened chat keeps its title: asking in it again must not rename it after a later question. Only a chat whose
  // first question never arrived is still to be titled.
  const untitled = session.title === NEW_CHAT_TITLE && entries.length === 0 && !assessment;
  return {
    ...EMPTY_CHAT,
    sessionId: session.id,
    titled: !untitled,
    title: untitled ? null : session.title,
    messages,
    owner: userId !== null && session.userId !== userId ? (session.username ?? 'a removed user') : null,
    draft,
  };
}
