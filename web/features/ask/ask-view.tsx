import { useCallback, useEffect, useRef, useState } from 'react';
import { useNavigate } from 'react-router';
import { FileSpreadsheet, LoaderCircle, MessageSquarePlus, SearchX } from 'lucide-react';
import type { SessionDetailView } from '../../../common/schemas/qa';
import { CreateAnswerDialog } from '../../app/knowledge/create-answer-dialog';
import { Button } from '../../components/ui/button';
import { EmptyState } from '../../components/ui/empty-state';
import { LoadError } from '../../components/ui/load-error';
import { Spinner } from '../../components/ui/spinner';
import { useCan } from '../../app/me/use-can';
import { useMe } from '../../app/me/get-me';
import { useOrganizationStats } from '../../app/organization/get-organization-stats';
import { paths } from '../../paths';
import { AssessmentMessageCard } from './components/assessment-message-card';
import { BulkImportDialog, type BulkImportRequest } from './components/bulk-import-dialog';
import { ChatComposer } from './components/chat-composer';
import { MessageCard } from './components/message-card';
import { RecentChats } from './components/recent-chats';
import { StartAssessmentDialog } from './components/start-assessment-dialog';
import { WelcomeCard } from './components/welcome-card';
import { sendingStartsNewChat, type ChatMessage } from './chat-store';
import { useChat } from './use-chat';
import { useSessionUrl } from './use-session-url';

const VIEWER_REASON = 'Viewers can read answers but not ask questions. Ask an admin for contributor access.';

/** PRODUCT "Ask Questions screen": the ask mode of the main workspace page. */
export function AskView() {
  const { chat, send, retry, setDraft, newChat, open, markAdded, startBulk } = useChat();
  const navigate = useNavigate();
  const { data: me } = useMe();
  const canAsk = useCan('qa:ask');
  const canAddToLibrary = useCan('knowledge:create_draft');
  const canApprove = useCan('knowledge:approve');
  const { data: stats } = useOrganizationStats();
  const [adding, setAdding] = useState<ChatMessage | null>(null);
  const [bulkOpen, setBulkOpen] = useState(false);
  // Remounting the Bulk Import dialog clears it: done once an import starts, not when its confirmation is cancelled.
  const [bulkFormKey, setBulkFormKey] = useState(0);
  // PRODUCT §7: an import asked for while the chat holds answers waits for the 'Start New Assessment?' answer.
  const [heldImport, setHeldImport] = useState<BulkImportRequest | null>(null);
  const scrollRoot = useRef<HTMLDivElement>(null);
  const composerRef = useRef<HTMLDivElement>(null);

  const userId = me?.user.id ?? null;
  const openDetail = useCallback((detail: SessionDetailView) => open(detail, userId), [open, userId]);
  const shown = useSessionUrl(chat.sessionId, openDetail);

  // Newest at the bottom, like any chat: follow each new question and each answer as it arrives.
  const messageCount = chat.messages.length;
  const answeredCount = chat.messages.filter((message) => !message.isLoading).length;
  useEffect(() => {
    const root = scrollRoot.current;
    if (root) root.scrollTo({ top: root.scrollHeight, behavior: 'smooth' });
  }, [messageCount, answeredCount]);

  const pickExample = (question: string) => {
    setDraft(question);
    composerRef.current?.querySelector('textarea')?.focus();
  };

  const startImport = (request: BulkImportRequest) => {
    setBulkFormKey((k) => k + 1);
    void startBulk(request.customerName, request.file);
  };
  const requestImport = (request: BulkImportRequest) => {
    if (chat.messages.some((message) => !message.isLoading)) setHeldImport(request);
    else startImport(request);
  };

  /** Leaves a chat that cannot be shown for a new one. */
  const startOver = () => {
    void newChat();
    void navigate(paths.dashboard, { replace: true });
  };

  const emptyWorkspace = stats !== undefined && stats.canonicalCount === 0 && stats.documentCount === 0;
  const opening = shown.status !== 'shown';
  const busy = chat.busy || chat.saving || opening;
  const newChatNotice = !sendingStartsNewChat(chat)
    ? undefined
    : chat.owner !== null
      ? `This is ${chat.owner}'s chat. Questions you send start a new chat of your own.`
      : 'This chat follows its bulk assessment. Questions you send start a new chat.';
  const onRetry = useCallback((message: ChatMessage) => void retry(message.id), [retry]);

  return (
    <div className="flex min-h-0 flex-1 flex-col">
      <header className="flex flex-wrap items-start justify-between gap-3 border-b px-4 pt-6 pb-4 md:px-8 md:pt-8">
        <div className="min-w-0">
          <h1 className="text-2xl font-semibold tracking-tight">Ask Questions</h1>
          <p className="mt-1 text-sm break-words text-muted-foreground">
            {chat.title && !opening ? (
              <>
                Current chat: <span className="font-medium text-foreground">{chat.title}</span>
                {chat.owner !== null && <> · {chat.owner}&apos;s chat</>}
              </>
            ) : (
              'Answer customer security questionnaires from your approved answers and documents.'
            )}
          </p>
        </div>
        {/* Both start chats, which only people who may ask can have. */}
        {canAsk && (
          <div className="flex flex-wrap items-center gap-2">
            <Button variant="outline" onClick={() => setBulkOpen(true)} disabled={busy}>
              <FileSpreadsheet aria-hidden />
              Bulk Import
            </Button>
            <Button variant="outline" onClick={() => void newChat()} disabled={chat.busy || chat.saving}>
              {chat.saving ? <LoaderCircle className="animate-spin" aria-hidden /> : <MessageSquarePlus aria-hidden />}
              {chat.saving ? 'Saving chat...' : 'New Chat'}
            </Button>
          </div>
        )}
      </header>

      {/* relative: screen-reader-only text inside must not escape the scroll box and stretch the page. */}
      <div ref={scrollRoot} className="relative min-h-0 flex-1 overflow-y-auto bg-surface/60 px-4 py-6 md:px-8">
        {shown.status === 'opening' ? (
          <div className="flex justify-center py-16">
            <Spinner className="size-6" label="Opening the chat" />
          </div>
        ) : shown.status === 'not-found' ? (
          <EmptyState
            icon={<SearchX aria-hidden />}
            title="Chat not found"
            description="This chat does not exist in this workspace, or it is not yours to see."
            actions={<Button onClick={startOver}>Start a new chat</Button>}
            className="mx-auto max-w-2xl"
          />
        ) : shown.status === 'error' ? (
          <LoadError
            error={shown.error}
            fallback="Could not open the chat."
            onRetry={shown.retry}
            className="mx-auto max-w-2xl"
          />
        ) : chat.messages.length === 0 ? (
          <>
            <WelcomeCard onPick={canAsk ? pickExample : undefined} emptyWorkspace={canAsk && emptyWorkspace} />
            <RecentChats />
          </>
        ) : (
          <ol
            className="mx-auto grid max-w-3xl grid-cols-[minmax(0,1fr)] gap-8"
            aria-label="Messages"
            aria-busy={chat.busy || undefined}
          >
            {chat.messages.map((message) => (
              <li key={message.id}>
                {message.assessment ? (
                  <AssessmentMessageCard assessment={message.assessment} />
                ) : (
                  <MessageCard
                    message={message}
                    onAddToLibrary={canAddToLibrary ? setAdding : undefined}
                    onRetry={busy ? undefined : onRetry}
                  />
                )}
              </li>
            ))}
          </ol>
        )}
      </div>

      <div ref={composerRef}>
        <ChatComposer
          value={chat.draft}
          onChange={setDraft}
          onSend={send}
          busy={busy}
          disabledReason={canAsk ? undefined : VIEWER_REASON}
          notice={newChatNotice}
          onBulkImport={() => setBulkOpen(true)}
        />
      </div>

      <BulkImportDialog key={bulkFormKey} open={bulkOpen} onOpenChange={setBulkOpen} onImport={requestImport} />
      <StartAssessmentDialog
        customerName={heldImport?.customerName ?? null}
        onCancel={() => {
          // Nothing is imported, but what the user filled in is not lost: back to the Bulk Import dialog.
          setHeldImport(null);
          setBulkOpen(true);
        }}
        onContinue={() => {
          if (heldImport) startImport(heldImport);
          setHeldImport(null);
        }}
      />
      {adding && (
        <CreateAnswerDialog
          key={adding.id}
          open
          onOpenChange={(open) => !open && setAdding(null)}
          asDraft={!canApprove}
          defaultQuestion={adding.question}
          onCreated={() => markAdded(adding.id)}
        />
      )}
    </div>
  );
}
