import { useCallback, useMemo, useRef, useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { useQueryClient } from '@tanstack/react-query';
import { HeartPulse, Inbox, LoaderCircle, Plus, Upload } from 'lucide-react';
import { SearchInput } from '../../components/ui/search-input';
import { LIBRARY_PAGE_MAX } from '../../../common/constants';
import type { CanonicalAnswerView } from '../../../common/schemas/knowledge';
import { CreateAnswerDialog } from '../../app/knowledge/create-answer-dialog';
import { Button } from '../../components/ui/button';
import { Checkbox } from '../../components/ui/checkbox';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '../../components/ui/tabs';
import { toast, toastError } from '../../components/ui/use-toast';
import { formatNumber } from '../../lib/format';
import { paths } from '../../paths';
import { useOrganizationStats } from '../../app/organization/get-organization-stats';
import { useExportCanonicalAnswers, type ExportFormat } from './api/export-canonical-answers';
import { useLibraryCounts } from './api/get-library-counts';
import { useLibrarySuggestions } from './api/get-library-suggestions';
import { libraryIdsQueryOptions } from './api/get-library-ids';
import type { LibraryFilter } from './api/library-filter';
import type { AnswerCardHandlers } from './components/answer-card';
import { AnswerList } from './components/answer-list';
import { DeleteAnswerDialog } from './components/delete-answer-dialog';
import { EditAnswerDialog } from './components/edit-answer-dialog';
import { ExportMenu } from './components/export-menu';
import { LibraryEmptyState } from './components/library-empty-state';
import { LibraryHealthDialog } from './components/library-health-dialog';
import { SuggestionsDialog } from './components/suggestions-dialog';
import { TagFilter } from './components/tag-filter';
import { LIBRARY_TAB_LABELS, LIBRARY_TABS, isLibraryTab, tabFilter, type LibraryTab } from './library-tabs';
import { useAnswerActions } from './use-answer-actions';
import { useDebouncedValue } from '../../lib/use-debounced-value';
import { useLibraryPermissions } from './use-library-permissions';

/** Long enough to skip the keystrokes of a word being typed, short enough to feel live. */
const SEARCH_DEBOUNCE_MS = 300;

const NO_SELECTION: ReadonlySet<string> = new Set();

/** PRODUCT "Knowledge Library (/library)": the library mode of the main workspace page. */
export function LibraryView() {
  const permissions = useLibraryPermissions();
  const queryClient = useQueryClient();
  const scrollRoot = useRef<HTMLDivElement>(null);

  // Other screens link here with ?q= (an answer's source) or ?tag= (a popular tag); read once, the page keys on them.
  const [searchParams] = useSearchParams();
  const [search, setSearch] = useState(() => searchParams.get('q') ?? '');
  const q = useDebouncedValue(search.trim(), SEARCH_DEBOUNCE_MS);
  const [tab, setTab] = useState<LibraryTab>('all');
  const [tag, setTag] = useState<string | undefined>(() => searchParams.get('tag') || undefined);
  // "Owned by me": with the re-verification tab, the entries an owner has to confirm again.
  const [mine, setMine] = useState(false);
  const filter = useMemo<LibraryFilter>(() => ({ q, ...tabFilter(tab), tag, mine }), [q, tab, tag, mine]);
  const filterKey = JSON.stringify(filter);
  const counts = useLibraryCounts(q, tag, mine);
  // The inbox's badge: approvers see how many suggestions wait for them.
  const pendingSuggestions = useLibrarySuggestions('pending', { enabled: permissions.canApprove }).data?.length ?? 0;
  // The sidebar's stats already count conflicting pairs; the health button shows them without loading the pairs.
  const openConflicts = useOrganizationStats().data?.openConflicts ?? 0;

  const [selected, setSelected] = useState<ReadonlySet<string>>(NO_SELECTION);
  // The filter whose every match is selected, so the button can offer 'Deselect All' without loading every id.
  const [allSelectedFor, setAllSelectedFor] = useState<string | null>(null);
  const [selectingAll, setSelectingAll] = useState(false);

  const [createOpen, setCreateOpen] = useState(false);
  const [healthOpen, setHealthOpen] = useState(false);
  const [suggestionsOpen, setSuggestionsOpen] = useState(false);
  const [editing, setEditing] = useState<CanonicalAnswerView | null>(null);
  const [deleting, setDeleting] = useState<CanonicalAnswerView | null>(null);

  const actions = useAnswerActions();
  const exportMutation = useExportCanonicalAnswers();
  const allSelected = allSelectedFor === filterKey && selected.size > 0;

  const clearSelection = () => {
    setSelected(NO_SELECTION);
    setAllSelectedFor(null);
  };

  const selectAll = async () => {
    setSelectingAll(true);
    try {
      const ids = await queryClient.fetchQuery(libraryIdsQueryOptions(filter));
      setSelected(new Set(ids));
      setAllSelectedFor(ids.length > 0 ? filterKey : null);
    } catch (error) {
      toastError(error, 'Could not select the answers.');
    } finally {
      setSelectingAll(false);
    }
  };

  const exportSelected = (format: ExportFormat) => {
    if (selected.size > LIBRARY_PAGE_MAX) {
      toast({
        title: 'Export failed',
        description: `At most ${formatNumber(LIBRARY_PAGE_MAX)} answers can be exported at once. Narrow the selection and try again.`,
        variant: 'destructive',
      });
      return;
    }
    exportMutation.mutate(
      { answerIds: [...selected], format },
      {
        onSuccess: () => toast({ title: 'Answers exported successfully', variant: 'success' }),
        onError: (error) => toastError(error, 'Failed to export answers', 'Export failed'),
      },
    );
  };

  const scrollToTop = () => scrollRoot.current?.scrollTo({ top: 0 });

  const { setStatus, verify } = actions;
  const handlers = useMemo<AnswerCardHandlers>(
    () => ({
      onToggleSelect: (id, isSelected) => {
        setSelected((current) => {
          const next = new Set(current);
          if (isSelected) next.add(id);
          else next.delete(id);
          return next;
        });
        if (!isSelected) setAllSelectedFor(null);
      },
      onOpen: setEditing,
      onSetStatus: setStatus,
      onVerify: verify,
      onDelete: setDeleting,
      onTagClick: (value) => {
        setTag(value);
        scrollRoot.current?.scrollTo({ top: 0 });
      },
    }),
    [setStatus, verify],
  );

  const confirmDelete = useCallback(
    (answer: CanonicalAnswerView) => {
      setDeleting(null);
      actions.remove(answer, () => {
        setSelected((current) => {
          if (!current.has(answer.id)) return current;
          const next = new Set(current);
          next.delete(answer.id);
          return next;
        });
      });
    },
    [actions],
  );

  const filtered = q !== '' || tag !== undefined || mine;
  const clearFilters = () => {
    setSearch('');
    setTag(undefined);
    setMine(false);
  };

  return (
    <Tabs
      value={tab}
      onValueChange={(value) => {
        if (isLibraryTab(value)) setTab(value);
        scrollToTop();
      }}
      className="flex min-h-0 flex-1 flex-col"
    >
      {/* One column no wider than the screen: an auto column would take its widest row's width on a phone. */}
      <div className="grid grid-cols-[minmax(0,1fr)] gap-4 border-b px-4 pt-8 pb-4 sm:px-8">
        <div className="flex flex-wrap items-start justify-between gap-3">
          <div className="min-w-0">
            <h1 className="text-2xl font-semibold tracking-tight">Knowledge Library</h1>
            <p className="mt-1 text-sm text-muted-foreground">
              Canonical answers your team reuses in every security questionnaire.
            </p>
          </div>
          <div className="flex flex-wrap items-center gap-2">
            {permissions.canCreate && (
              <Button variant="outline" onClick={() => setSuggestionsOpen(true)}>
                <Inbox aria-hidden />
                {permissions.canApprove ? 'Approval inbox' : 'My suggestions'}
                {pendingSuggestions > 0 && (
                  <span className="rounded-full bg-amber-100 px-1.5 text-xs font-semibold text-amber-800 tabular-nums">
                    {formatNumber(pendingSuggestions)}
                    <span className="sr-only"> waiting</span>
                  </span>
                )}
              </Button>
            )}
            <Button variant="outline" onClick={() => setHealthOpen(true)}>
              <HeartPulse aria-hidden />
              Library health
              {openConflicts > 0 && (
                <span className="rounded-full bg-red-100 px-1.5 text-xs font-semibold text-red-800 tabular-nums">
                  {formatNumber(openConflicts)}
                  <span className="sr-only"> {openConflicts === 1 ? 'conflict' : 'conflicts'}</span>
                </span>
              )}
            </Button>
            {permissions.canImport && (
              <Button variant="outline" asChild>
                <Link to={paths.import}>
                  <Upload aria-hidden />
                  Import Q&amp;A
                </Link>
              </Button>
            )}
            {permissions.canCreate && (
              <Button onClick={() => setCreateOpen(true)}>
                <Plus aria-hidden />
                Create Question
              </Button>
            )}
          </div>
        </div>

        <div className="flex flex-wrap items-center gap-2">
          <SearchInput
            value={search}
            onChange={setSearch}
            pending={search.trim() !== q}
            placeholder="Search questions, answers and tags..."
            label="Search answers"
          />
          <TagFilter value={tag} onChange={setTag} />
          <label className="flex items-center gap-2 text-sm">
            <Checkbox checked={mine} onCheckedChange={(checked) => setMine(checked === true)} />
            Owned by me
          </label>
        </div>

        <div className="flex flex-wrap items-center justify-between gap-2">
          {/* Four tabs with counts are wider than a phone: they wrap rather than hide the last one off screen. */}
          <TabsList className="h-auto max-w-full flex-wrap justify-start">
            {LIBRARY_TABS.map((value) => (
              <TabsTrigger key={value} value={value} className="h-8 flex-none">
                {LIBRARY_TAB_LABELS[value]}
                {counts.data && (
                  <span className="rounded-full bg-muted px-1.5 text-xs tabular-nums">
                    {formatNumber(counts.data[value])}
                  </span>
                )}
              </TabsTrigger>
            ))}
          </TabsList>
          {/* ml-auto keeps the selection tools on the right when a narrow main column wraps them. */}
          <div className="ml-auto flex flex-wrap items-center gap-2">
            {selected.size > 0 && (
              <span className="text-sm text-muted-foreground" aria-live="polite">
                {formatNumber(selected.size)} selected
              </span>
            )}
            <Button
              variant="ghost"
              onClick={allSelected ? clearSelection : () => void selectAll()}
              disabled={selectingAll || counts.data?.[tab] === 0}
            >
              {selectingAll && <LoaderCircle className="animate-spin" aria-hidden />}
              {allSelected ? 'Deselect All' : 'Select All'}
            </Button>
            <ExportMenu count={selected.size} pending={exportMutation.isPending} onExport={exportSelected} />
          </div>
        </div>
      </div>

      <div ref={scrollRoot} className="min-h-0 flex-1 overflow-y-auto bg-surface/60 px-4 py-6 sm:px-8">
        {LIBRARY_TABS.map((value) => (
          <TabsContent key={value} value={value} className="mt-0">
            <AnswerList
              filter={filter}
              selectedIds={selected}
              busyId={actions.busyId}
              permissions={permissions}
              handlers={handlers}
              scrollRoot={scrollRoot}
              empty={
                <LibraryEmptyState
                  tab={value}
                  filtered={filtered}
                  canCreate={permissions.canCreate}
                  canImport={permissions.canImport}
                  onCreate={() => setCreateOpen(true)}
                  onClearFilters={clearFilters}
                />
              }
            />
          </TabsContent>
        ))}
      </div>

      <CreateAnswerDialog open={createOpen} onOpenChange={setCreateOpen} asDraft={!permissions.canApprove} />
      <EditAnswerDialog answer={editing} onClose={() => setEditing(null)} permissions={permissions} />
      <DeleteAnswerDialog answer={deleting} onCancel={() => setDeleting(null)} onConfirm={confirmDelete} />
      <LibraryHealthDialog open={healthOpen} onOpenChange={setHealthOpen} canResolve={permissions.canApprove} />
      <SuggestionsDialog open={suggestionsOpen} onOpenChange={setSuggestionsOpen} canApprove={permissions.canApprove} />
    </Tabs>
  );
}
