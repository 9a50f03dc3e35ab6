import { useCallback, useDeferredValue, useEffect, useMemo, useRef, useState } from 'react';
import { Link, useParams, useSearchParams } from 'react-router';
import { ArrowLeft, SearchX } from 'lucide-react';
import type { AssessmentDetail, AssessmentQuestionView } from '../../../common/schemas/assessments';
import { Button, buttonVariants } from '../../components/ui/button';
import { EmptyState } from '../../components/ui/empty-state';
import { LoadError } from '../../components/ui/load-error';
import { Spinner } from '../../components/ui/spinner';
import { toast, toastError } from '../../components/ui/use-toast';
import { isApiRequestError } from '../../lib/api';
import { formatNumber } from '../../lib/format';
import { useMediaQuery } from '../../lib/use-media-query';
import { paths } from '../../paths';
import { useMe } from '../../app/me/get-me';
import { useWorkspaceFromLink } from '../../app/workspace/use-workspace-from-link';
import { isAssessmentMoving, useAssessment } from './api/get-assessment';
import { useRetryFailedQuestions } from './api/retry-failed';
import { AssessmentHeader } from './components/assessment-header';
import { AssessmentProgressSummary } from './components/assessment-progress';
import { AssignDialog, type AssignTarget } from './components/assign-dialog';
import { BulkReviewBar } from './components/bulk-review-bar';
import { QuestionCard, questionAnchor } from './components/question-card';
import { QuestionFilters } from './components/question-filters';
import {
  countQuestions,
  filterQuestions,
  isFiltered,
  NO_FILTER,
  searchTextOf,
  type QuestionFilter,
} from './question-filter';
import { filterFromParams, paramsWithFilter } from './filter-params';
import { useAssessmentActions } from './use-assessment-actions';
import { useIncrementalList } from './use-incremental-list';
import { useQuestionActions } from './use-question-actions';

/** Tailwind's lg, where the header stays above the scrolling questions (the `lg:` classes below). */
const WIDE_SCREEN = '(min-width: 64rem)';

/** How long a question jumped to from a contradiction link stays outlined. */
const HIGHLIGHT_MS = 2500;

function NotFound() {
  return (
    <div className="flex flex-1 flex-col items-center justify-center gap-4 px-8 py-16 text-center">
      <h1 className="text-2xl font-semibold tracking-tight">Assessment not found</h1>
      <p className="max-w-sm text-sm text-muted-foreground">
        It may have been deleted, or it belongs to another workspace.
      </p>
      <Link to={paths.assessments} className={buttonVariants({ variant: 'outline' })}>
        <ArrowLeft aria-hidden />
        Back to Bulk Assessments
      </Link>
    </div>
  );
}

/** PRODUCT "Assessment detail (/assessments/{batchId})". */
export function AssessmentDetailPage() {
  const { batchId = '' } = useParams();
  // The review e-mail links here with the assessment's workspace: loaded from another one, it would be "not found".
  const followingLink = useWorkspaceFromLink();
  const query = useAssessment(batchId, { enabled: !followingLink });

  if (query.isPending) {
    return (
      <div className="flex flex-1 justify-center py-16">
        <Spinner className="size-6" label="Loading assessment" />
      </div>
    );
  }
  if (query.isError && !query.data) {
    if (isApiRequestError(query.error) && (query.error.status === 404 || query.error.status === 400)) {
      return <NotFound />;
    }
    return (
      <div className="px-8 py-8">
        <LoadError error={query.error} fallback="Could not load the assessment." onRetry={() => void query.refetch()} />
      </div>
    );
  }
  return <AssessmentDetailView detail={query.data} />;
}

const NO_PERMISSIONS: readonly string[] = [];

function AssessmentDetailView({ detail }: { detail: AssessmentDetail }) {
  const { batch, questions, progress } = detail;
  const me = useMe();
  const permissions = me.data?.permissions ?? NO_PERMISSIONS;
  const canRun = permissions.includes('assessments:run');
  const canApprove = permissions.includes('assessments:approve');
  const canAssign = permissions.includes('assessments:assign');
  const canBulk = canApprove || canAssign;
  const actions = useAssessmentActions();
  const retry = useRetryFailedQuestions();
  const moving = isAssessmentMoving(detail);

  // In the address, so Back from a source opened from a filtered list comes back to the same list. The search box's
  // text is also kept here: the router updates the address in a transition, and a typed-in box must update at once.
  const [searchParams, setSearchParams] = useSearchParams();
  const [search, setSearch] = useState(() => filterFromParams(searchParams).search);
  const filter = useMemo(() => ({ ...filterFromParams(searchParams), search }), [searchParams, search]);
  const latest = useRef(filter);
  useEffect(() => {
    latest.current = filter;
  }, [filter]);
  const setFilter = useCallback(
    (next: QuestionFilter | ((current: QuestionFilter) => QuestionFilter)) => {
      const updated = typeof next === 'function' ? next(latest.current) : next;
      latest.current = updated;
      setSearch(updated.search);
      setSearchParams((params) => paramsWithFilter(params, updated), { replace: true });
    },
    [setSearchParams],
  );
  const deferredSearch = useDeferredValue(filter.search);
  const texts = useMemo(() => questions.map(searchTextOf), [questions]);
  const counts = useMemo(() => countQuestions(questions), [questions]);
  const showSheet = useMemo(() => new Set(questions.map((q) => q.sheet)).size > 1, [questions]);
  const visible = useMemo(
    () => filterQuestions(questions, texts, { ...filter, search: deferredSearch }),
    [questions, texts, filter, deferredSearch],
  );
  const visibleIds = useMemo(() => visible.map((q) => q.id), [visible]);

  // On a wide screen the header stays and the questions scroll under it; on a phone the header (title, counts,
  // actions: half the screen) scrolls away with them, so the page is what scrolls and loads more cards.
  const wide = useMediaQuery(WIDE_SCREEN);
  const pageRoot = useRef<HTMLDivElement>(null);
  const listRoot = useRef<HTMLDivElement>(null);
  const scrollRoot = wide ? listRoot : pageRoot;
  const { limit, sentinel, more, reveal, reset: resetList } = useIncrementalList(visible.length, scrollRoot);
  useEffect(() => resetList(), [filter.status, filter.answerType, filter.reviewState, deferredSearch, resetList]);

  // The bulk bar's selection: ids of questions still in the assessment.
  const [selected, setSelected] = useState<ReadonlySet<string>>(new Set());
  const onToggleSelected = useCallback((id: string, on: boolean) => {
    setSelected((current) => {
      const next = new Set(current);
      if (on) next.add(id);
      else next.delete(id);
      return next;
    });
  }, []);
  const clearSelection = useCallback(() => setSelected(new Set()), []);
  const [assignTarget, setAssignTarget] = useState<AssignTarget | null>(null);
  const onAssign = useCallback(
    (question: AssessmentQuestionView) => setAssignTarget({ kind: 'questions', questions: [question] }),
    [],
  );

  // A contradiction link: show the other question (clearing filters that hide it), scroll to it, outline it.
  const [jumpTarget, setJumpTarget] = useState<number | null>(null);
  const [highlighted, setHighlighted] = useState<number | null>(null);
  const onJumpTo = useCallback((orderIndex: number) => setJumpTarget(orderIndex), []);
  const filtered = isFiltered(filter);
  const filterSettled = filter.search === deferredSearch;
  useEffect(() => {
    if (jumpTarget === null) return;
    const index = visible.findIndex((q) => q.orderIndex === jumpTarget);
    if (index === -1) {
      // Hidden by a filter: clear it and come back once the full list is showing.
      if (filtered || !filterSettled) setFilter(NO_FILTER);
      else setJumpTarget(null);
      return;
    }
    if (index >= limit) {
      reveal(index);
      return;
    }
    document.getElementById(questionAnchor(jumpTarget))?.scrollIntoView({ block: 'center', behavior: 'smooth' });
    setHighlighted(jumpTarget);
    setJumpTarget(null);
  }, [jumpTarget, visible, limit, reveal, filtered, filterSettled, setFilter]);
  useEffect(() => {
    if (highlighted === null) return;
    const timer = setTimeout(() => setHighlighted(null), HIGHLIGHT_MS);
    return () => clearTimeout(timer);
  }, [highlighted]);

  const pageHandlers = useMemo(
    () => ({ onAssign, onToggleSelected, onJumpTo }),
    [onAssign, onToggleSelected, onJumpTo],
  );
  const { handlers, busy } = useQuestionActions(batch.id, pageHandlers);

  const retryFailed = () =>
    retry.mutate(batch.id, {
      onSuccess: (retried) =>
        toast({
          title: 'Retrying failed questions',
          description: `${formatNumber(retried)} ${retried === 1 ? 'question was' : 'questions were'} sent back for answering.`,
        }),
      onError: (error) => toastError(error, 'Failed to retry the failed questions'),
    });

  const shown = visible.slice(0, limit);
  const selectedQuestions = questions.filter((q) => selected.has(q.id));

  return (
    <div ref={pageRoot} className="flex min-h-0 flex-1 flex-col overflow-y-auto lg:overflow-hidden">
      <AssessmentHeader
        batch={batch}
        questions={questions}
        exporting={actions.exportingId === batch.id}
        onExport={(format, options) => actions.exportAs(batch, format, options)}
        canSetDueDate={canAssign}
        reviewFilter={filter.reviewState}
        onReviewFilter={(reviewState) => setFilter((current) => ({ ...current, reviewState }))}
        failedCount={progress.failed}
        retrying={retry.isPending}
        onRetryFailed={canRun ? retryFailed : undefined}
      />
      <div ref={listRoot} className="flex-1 bg-surface/60 px-4 py-6 sm:px-8 lg:min-h-0 lg:overflow-y-auto">
        {/* Columns no wider than the screen: an auto column takes its widest item's width on a phone. */}
        <div className="mx-auto grid max-w-5xl grid-cols-[minmax(0,1fr)] gap-5">
          <AssessmentProgressSummary progress={progress} moving={moving} review={batch.reviewCounts} />
          <section aria-label="Questions" className="grid grid-cols-[minmax(0,1fr)] gap-3">
            <QuestionFilters
              filter={filter}
              onChange={(change) => setFilter((current) => ({ ...current, ...change }))}
              searching={filter.search !== deferredSearch}
              counts={counts}
              total={questions.length}
            />
            <p className="text-sm text-muted-foreground" aria-live="polite">
              {filtered
                ? `${formatNumber(visible.length)} of ${formatNumber(questions.length)} questions`
                : `${formatNumber(questions.length)} ${questions.length === 1 ? 'question' : 'questions'}`}
            </p>
            {canBulk && (
              <BulkReviewBar
                batchId={batch.id}
                questions={questions}
                visibleIds={visibleIds}
                selected={selected}
                onSelect={(ids) => setSelected(new Set(ids))}
                onClear={clearSelection}
                canApprove={canApprove}
                canAssign={canAssign}
                onAssignSelected={() => setAssignTarget({ kind: 'questions', questions: selectedQuestions })}
                onAssignSection={() => setAssignTarget({ kind: 'section' })}
              />
            )}
            {visible.length === 0 ? (
              <EmptyState
                icon={<SearchX aria-hidden />}
                title="No matching questions"
                description="Try other words, or show every status, review state and answer type."
                actions={
                  <Button variant="outline" onClick={() => setFilter(NO_FILTER)}>
                    Clear filters
                  </Button>
                }
              />
            ) : (
              <ol className="grid grid-cols-[minmax(0,1fr)] gap-3" aria-label="Assessment questions">
                {shown.map((question) => (
                  <li key={question.id}>
                    <QuestionCard
                      batchId={batch.id}
                      question={question}
                      showSheet={showSheet}
                      permissions={permissions}
                      selectable={canBulk}
                      selected={selected.has(question.id)}
                      busy={busy.get(question.id) ?? null}
                      highlighted={highlighted === question.orderIndex}
                      handlers={handlers}
                    />
                  </li>
                ))}
              </ol>
            )}
            {more && (
              <div ref={sentinel} className="flex justify-center py-4">
                <Spinner className="size-5" label="Loading more questions" />
              </div>
            )}
          </section>
        </div>
      </div>
      {canAssign && (
        <AssignDialog
          batchId={batch.id}
          questions={questions}
          target={assignTarget}
          onClose={() => setAssignTarget(null)}
          onAssigned={
            assignTarget?.kind === 'questions' && assignTarget.questions.length > 1 ? clearSelection : undefined
          }
        />
      )}
    </div>
  );
}
