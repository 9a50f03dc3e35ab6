import { useMemo, useState } from 'react';
import { Download, History, LoaderCircle } from 'lucide-react';
import { Button } from '../../components/ui/button';
import { LoadError } from '../../components/ui/load-error';
import { EmptyState } from '../../components/ui/empty-state';
import { Pager } from '../../components/ui/pager';
import { Spinner } from '../../components/ui/spinner';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '../../components/ui/tabs';
import { toast, toastError } from '../../components/ui/use-toast';
import { useDebouncedValue } from '../../lib/use-debounced-value';
import { useCan } from '../../app/me/use-can';
import { useExportChatHistory } from './api/export-chat-history';
import { HISTORY_PAGE_SIZE, useHistoryEntries } from './api/get-history-entries';
import { HistoryEntryCard } from './components/history-entry-card';
import { HistoryFilters } from './components/history-filters';
import { SessionList } from './components/session-list';
import { DEFAULT_HISTORY_FILTER, type HistoryFilter } from './history-filter';

/** Long enough to skip the keystrokes of a word being typed, short enough to feel live. */
const SEARCH_DEBOUNCE_MS = 300;

type HistoryTab = 'questions' | 'sessions';

function EntryList({ filter, filtered }: { filter: HistoryFilter; filtered: boolean }) {
  // The page belongs to one filter: any change of filter starts again from the first page.
  const filterKey = JSON.stringify(filter);
  const [paging, setPaging] = useState({ filterKey, offset: 0 });
  const offset = paging.filterKey === filterKey ? paging.offset : 0;
  const query = useHistoryEntries(filter, offset);

  if (query.isPending) {
    return (
      <div className="flex justify-center py-16">
        <Spinner className="size-6" label="Loading chat history" />
      </div>
    );
  }
  if (query.isError && !query.data) {
    return (
      <LoadError error={query.error} fallback="Could not load the chat history." onRetry={() => void query.refetch()} />
    );
  }
  const { entries, total } = query.data;
  if (entries.length === 0) {
    return (
      <EmptyState
        icon={<History aria-hidden />}
        title={filtered ? 'No matching questions' : 'No questions yet'}
        description={
          filtered
            ? 'Try another user, time period, answer type or search.'
            : 'Questions asked on the Ask Questions screen appear here with their answers.'
        }
      />
    );
  }
  const pager = (
    <Pager
      offset={offset}
      pageSize={HISTORY_PAGE_SIZE}
      total={total}
      busy={query.isPlaceholderData}
      noun={total === 1 ? 'question' : 'questions'}
      onOffsetChange={(next) => setPaging({ filterKey, offset: next })}
    />
  );
  return (
    <div className="grid gap-3">
      {pager}
      <ul
        className={query.isPlaceholderData ? 'grid gap-3 opacity-60 transition-opacity' : 'grid gap-3'}
        aria-label="Questions"
        aria-busy={query.isPlaceholderData || undefined}
      >
        {entries.map((entry) => (
          <li key={entry.id}>
            <HistoryEntryCard entry={entry} />
          </li>
        ))}
      </ul>
      {pager}
    </div>
  );
}

/** PRODUCT "Chat History (/chat-history)": the questions asked in the workspace, their answers and chat sessions. */
export function ChatHistoryPage() {
  const seeEveryone = useCan('chat_history:read_all');
  const [search, setSearch] = useState('');
  const q = useDebouncedValue(search.trim(), SEARCH_DEBOUNCE_MS);
  const [choices, setChoices] = useState<Omit<HistoryFilter, 'q'>>(DEFAULT_HISTORY_FILTER);
  const filter = useMemo<HistoryFilter>(() => ({ ...choices, q }), [choices, q]);
  const [tab, setTab] = useState<HistoryTab>('questions');
  const exportMutation = useExportChatHistory();
  const filtered =
    q !== '' || filter.userId !== undefined || filter.period !== 'all' || filter.answerType !== undefined;

  const exportCsv = () => {
    exportMutation.mutate(filter, {
      onSuccess: () =>
        toast({
          title: 'Export successful',
          description: 'The chat history was saved as a CSV file.',
          variant: 'success',
        }),
      onError: (error) => toastError(error, 'Failed to export chat history', 'Export failed'),
    });
  };

  return (
    <Tabs
      value={tab}
      onValueChange={(value) => setTab(value === 'sessions' ? 'sessions' : 'questions')}
      className="flex min-h-0 flex-1 flex-col"
    >
      <div className="grid gap-4 border-b px-8 pt-8 pb-4">
        <div className="flex flex-wrap items-start justify-between gap-3">
          <div className="min-w-0">
            <h1 className="text-2xl font-semibold tracking-tight">Chat History</h1>
            <p className="mt-1 text-sm text-muted-foreground">
              {seeEveryone
                ? 'Every question asked in this workspace, with the answer it received.'
                : 'The questions you asked in this workspace, with the answers they received.'}
            </p>
          </div>
          <Button variant="outline" onClick={exportCsv} disabled={exportMutation.isPending}>
            {exportMutation.isPending ? (
              <LoaderCircle className="animate-spin" aria-hidden />
            ) : (
              <Download aria-hidden />
            )}
            Export CSV
          </Button>
        </div>
        <HistoryFilters
          search={search}
          onSearchChange={setSearch}
          searching={search.trim() !== q}
          filter={filter}
          onChange={(change) => setChoices((current) => ({ ...current, ...change }))}
          canFilterUsers={seeEveryone}
          answerTypeDisabled={tab === 'sessions'}
        />
        <TabsList className="justify-self-start">
          <TabsTrigger value="questions">Individual Questions</TabsTrigger>
          <TabsTrigger value="sessions">Chat Sessions</TabsTrigger>
        </TabsList>
      </div>
      <div className="min-h-0 flex-1 overflow-y-auto bg-surface/60 px-8 py-6">
        <TabsContent value="questions" className="mt-0">
          <EntryList filter={filter} filtered={filtered} />
        </TabsContent>
        <TabsContent value="sessions" className="mt-0">
          <SessionList filter={filter} />
        </TabsContent>
      </div>
    </Tabs>
  );
}
