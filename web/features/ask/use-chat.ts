import { useCallback } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { useWorkspace } from '../../app/workspace/use-workspace';
import { markAddedToLibrary, sendQuestions, startBulkAssessment, startNewChat } from './chat-actions';
import { useChatState, type ChatState } from './chat-store';

export interface ChatControls {
  chat: ChatState;
  /** Sends the composer's text; false when nothing was sent (blank, or a request already in flight). */
  send: (text: string) => boolean;
  /** Saves the chat to history and starts a new one. */
  newChat: () => Promise<void>;
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
  const newChat = useCallback(() => startNewChat(key, queryClient), [key, queryClient]);
  const markAdded = useCallback((messageId: string) => markAddedToLibrary(key, messageId), [key]);
  const startBulk = useCallback(
    async (customerName: string, file: File) => {
      await startNewChat(key, queryClient);
      await startBulkAssessment(key, customerName, file, queryClient);
    },
    [key, queryClient],
  );
  return { chat, send, newChat, markAdded, startBulk };
}
