import { useEffect, useRef } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import type { SessionDetailView } from '../../../common/schemas/qa';
import { isApiRequestError } from '../../lib/api';
import { SESSION_PARAM, useSessionToOpen } from './api/get-session';

export type SessionUrlState =
  | { status: 'shown' }
  | { status: 'opening' }
  | { status: 'not-found' }
  | { status: 'error'; error: unknown; retry: () => void };

/**
 * Keeps the URL and the chat shown on Ask naming the same session (PRODUCT §7), so a reload or a shared link shows
 * that chat:
 * - the URL names another chat (a link from Chat History or Recent chats, a reload): that chat is fetched and shown;
 * - the chat moves on by itself (its first question made a session, New Chat, Bulk Import): the URL follows, in place.
 * A chat the caller may not read is "not found", never someone else's chat.
 */
export function useSessionUrl(
  chatSessionId: string | null,
  open: (detail: SessionDetailView) => void,
): SessionUrlState {
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const urlSession = params.get(SESSION_PARAM);
  // A URL the chat has just moved away from: until the URL follows, it must not be opened again.
  const leftUrl = useRef<string | null>(null);
  const lastChat = useRef(chatSessionId);

  const toOpen =
    urlSession !== null && urlSession !== chatSessionId && urlSession !== leftUrl.current ? urlSession : null;
  const opened = useSessionToOpen(toOpen);

  useEffect(() => {
    const moved = lastChat.current !== chatSessionId;
    lastChat.current = chatSessionId;
    const follow = (moved && urlSession !== chatSessionId) || (urlSession === null && chatSessionId !== null);
    if (!follow) return;
    leftUrl.current = urlSession;
    const next = new URLSearchParams(params);
    if (chatSessionId) next.set(SESSION_PARAM, chatSessionId);
    else next.delete(SESSION_PARAM);
    void navigate({ search: next.toString() }, { replace: true });
  }, [chatSessionId, urlSession, params, navigate]);

  useEffect(() => {
    if (urlSession !== leftUrl.current) leftUrl.current = null;
  }, [urlSession]);

  const { data } = opened;
  useEffect(() => {
    // leftUrl is read here, not in render: the effect above may have just left this URL in this same commit.
    if (toOpen !== null && toOpen !== leftUrl.current && data?.session.id === toOpen) open(data);
  }, [toOpen, data, open]);

  if (toOpen === null) return { status: 'shown' };
  if (opened.isError) {
    if (isApiRequestError(opened.error) && (opened.error.status === 404 || opened.error.status === 400)) {
      return { status: 'not-found' };
    }
    return { status: 'error', error: opened.error, retry: () => void opened.refetch() };
  }
  return { status: 'opening' };
}
