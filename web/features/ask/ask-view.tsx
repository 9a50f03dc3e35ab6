import { useEffect, useRef, useState } from 'react';
import { FileSpreadsheet, LoaderCircle, MessageSquarePlus } from 'lucide-react';
import { CreateAnswerDialog } from '../../app/knowledge/create-answer-dialog';
import { Button } from '../../components/ui/button';
import { useCan } from '../../app/me/use-can';
import { useOrganizationStats } from '../../app/organization/get-organization-stats';
import { AssessmentMessageCard } from './components/assessment-message-card';
import { BulkImportDialog, type BulkImportRequest } from './components/bulk-import-dialog';
import { ChatComposer } from './components/chat-composer';
import { MessageCard } from './components/message-card';
import { StartAssessmentDialog } from './components/start-assessment-dialog';
import { WelcomeCard } from './components/welcome-card';
import type { ChatMessage } from './chat-store';
import { useChat } from './use-chat';

const VIEWER_REASON = 'Viewers can read answers but not ask questions. Ask an admin for contributor access.';

/** PRODUCT "Ask Questions screen": the ask mode of the main workspace page. */
export function AskView() {
  const { chat, send, newChat, markAdded, startBulk } = useChat();
  const canAsk = useCan('qa:ask');
  const canAddToLibrary = useCan('knowledge:create_draft');
  const canApprove = useCan('knowledge:approve');
  const { data: stats } = useOrganizationStats();
  const [draft, setDraft] = useState('');
  const [adding, setAdding] = useState<ChatMessage | null>(null);
  const [bulkOpen, setBulkOpen] = useState(false);
  // PRODUCT §7: an import asked for while the chat holds answers waits for the 'Start New Assessment?' answer.
  const [heldImport, setHeldImport] = useState<BulkImportRequest | null>(null);
  const scrollRoot = useRef<HTMLDivElement>(null);
  const composerRef = useRef<HTMLDivElement>(null);

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

  const requestImport = (request: BulkImportRequest) => {
    if (chat.messages.some((message) => !message.isLoading)) setHeldImport(request);
    else void startBulk(request.customerName, request.file);
  };

  const emptyWorkspace = stats !== undefined && stats.canonicalCount === 0 && stats.documentCount === 0;

  return (
    <div className="flex min-h-0 flex-1 flex-col">
      <header className="flex flex-wrap items-start justify-between gap-3 border-b px-8 pt-8 pb-4">
        <div className="min-w-0">
          <h1 className="text-2xl font-semibold tracking-tight">Ask Questions</h1>
          <p className="mt-1 text-sm text-muted-foreground">
            {chat.title ? (
              <>
                Current chat: <span className="font-medium text-foreground">{chat.title}</span>
              </>
            ) : (
              'Answer customer security questionnaires from your approved answers and documents.'
            )}
          </p>
        </div>
        {/* Both start chats, which only people who may ask can have. */}
        {canAsk && (
          <div className="flex flex-wrap items-center gap-2">
            <Button variant="outline" onClick={() => setBulkOpen(true)} disabled={chat.busy || chat.saving}>
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
      <div ref={scrollRoot} className="relative min-h-0 flex-1 overflow-y-auto bg-surface/60 px-8 py-6">
        {chat.messages.length === 0 ? (
          <WelcomeCard onPick={canAsk ? pickExample : undefined} emptyWorkspace={canAsk && emptyWorkspace} />
        ) : (
          <ol className="mx-auto grid max-w-3xl gap-8" aria-label="Messages" aria-busy={chat.busy || undefined}>
            {chat.messages.map((message) => (
              <li key={message.id}>
                {message.assessment ? (
                  <AssessmentMessageCard assessment={message.assessment} />
                ) : (
                  <MessageCard message={message} onAddToLibrary={canAddToLibrary ? setAdding : undefined} />
                )}
              </li>
            ))}
          </ol>
        )}
      </div>

      <div ref={composerRef}>
        <ChatComposer
          value={draft}
          onChange={setDraft}
          onSend={send}
          busy={chat.busy || chat.saving}
          disabledReason={canAsk ? undefined : VIEWER_REASON}
        />
      </div>

      <BulkImportDialog open={bulkOpen} onOpenChange={setBulkOpen} onImport={requestImport} />
      <StartAssessmentDialog
        customerName={heldImport?.customerName ?? null}
        onCancel={() => setHeldImport(null)}
        onContinue={() => {
          if (heldImport) void startBulk(heldImport.customerName, heldImport.file);
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
