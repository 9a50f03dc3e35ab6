import { useCallback } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import type { SessionDetailView } from '../../../common/schemas/qa';
import { useWorkspace } from '../../app/workspace/use-workspace';
import {
  markAddedToLibrary,
  openSession,
  retryQuestion,
  sendQuestions,
  setDraft,
  startBulkAssessment,
  startNewChat,
} from './chat-actions';
import { useChatState, type ChatState } from './chat-store';

export interface ChatControls {
  chat: ChatState;
  /** Sends the composer's text; false when nothing was sent (blank, too much, or a request already in flight). */
  send: (text: string) => boolean;
  /** Asks a failed question again. */
  retry: (messageId: string) => Promise<void>;
  /** Keeps the composer's text with the chat. */
  setDraft: (text: string) => void;
  /** Saves the chat to history and starts a new one. */
  newChat: () => Promise<void>;
  /** Shows a chat reopened from the server. */
  open: (detail: SessionDetailView, userId: string | null) => void;
  /** Records that a message's question now has a library entry. */
  markAdded: (messageId: string) => void;
  /** Saves the chat, then starts an assessment of a customer's questionnaire in a new one. */
  startBulk: (customerName: string, file: File) => Promise<void>;
}

/** The current workspace's chat and the actions on it. */
export function useChat(): ChatControls {
  const { currentWorkspace } = useWorkspace();
  const key = currentWorkspace?.id ?? 'none';
  const chat = useChatState(key);
  const queryClient = useQueryClient();
  const send = useCallback((text: string) => sendQuestions(key, text, queryClient), [key, queryClient]);
  const retry = useCallback((messageId: string) => retryQuestion(key, messageId, queryClient), [key, queryClient]);
  const keepDraft = useCallback((text: string) => setDraft(key, text), [key]);
  const newChat = useCallback(() => startNewChat(key, queryClient), [key, queryClient]);
  const open = useCallback(
    (detail: SessionDetailView, userId: string | null) => openSession(key, detail, userId),
    [key],
  );
  const markAdded = useCallback((messageId: string) => markAddedToLibrary(key, messageId), [key]);
  const startBulk = useCallback(
    async (customerName: string, file: File) => {
      await startNewChat(key, queryClient);
      await startBulkAssessment(key, customerName, file, queryClient);
    },
    [key, queryClient],
  );
  return { chat, send, retry, setDraft: keepDraft, newChat, open, markAdded, startBulk };
}
