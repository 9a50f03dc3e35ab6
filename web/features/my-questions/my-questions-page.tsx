import { Link } from 'react-router';
import { ArrowRight, Building2, ClipboardCheck } from 'lucide-react';
import { buttonVariants } from '../../components/ui/button';
import { EmptyState } from '../../components/ui/empty-state';
import { LoadError } from '../../components/ui/load-error';
import { Spinner } from '../../components/ui/spinner';
import { formatNumber } from '../../lib/format';
import { paths } from '../../paths';
import { useMe } from '../../app/me/get-me';
import { useWorkspaceFromLink } from '../../app/workspace/use-workspace-from-link';
import { DueDate } from '../assessments/review-badges';
import { useMyQuestions } from './api/get-my-questions';
import { MyQuestionCard } from './components/my-question-card';
import { groupByAssessment } from './group-questions';

const NO_PERMISSIONS: readonly string[] = [];

/** "My questions" (/my-questions): what the assessments of this workspace wait on me for, soonest due first. */
export function MyQuestionsPage() {
  // The assignment and overdue e-mails link here in the assessment's workspace.
  useWorkspaceFromLink();
  const query = useMyQuestions();
  const me = useMe();
  const permissions = me.data?.permissions ?? NO_PERMISSIONS;
  const items = query.data ?? [];
  const groups = groupByAssessment(items);

  return (
    <div className="flex min-h-0 flex-1 flex-col">
      <header className="border-b px-4 pt-8 pb-4 sm:px-8">
        <h1 className="text-2xl font-semibold tracking-tight">My questions</h1>
        <p className="mt-1 text-sm text-muted-foreground">
          Assessment questions assigned to you in this workspace, soonest due first.
        </p>
      </header>

      <div className="min-h-0 flex-1 overflow-y-auto bg-surface/60 px-4 py-6 sm:px-8">
        {query.isPending ? (
          <div className="flex justify-center py-16">
            <Spinner className="size-6" label="Loading your questions" />
          </div>
        ) : query.isError && items.length === 0 ? (
          <LoadError
            error={query.error}
            fallback="Could not load your questions."
            onRetry={() => void query.refetch()}
          />
        ) : groups.length === 0 ? (
          <EmptyState
            icon={<ClipboardCheck aria-hidden />}
            title="No questions are assigned to you"
            description="When a manager assigns you assessment questions, they are listed here."
          />
        ) : (
          <div className="mx-auto grid max-w-5xl gap-6">
            <p className="text-sm text-muted-foreground" aria-live="polite">
              {formatNumber(items.length)} {items.length === 1 ? 'question' : 'questions'} in{' '}
              {formatNumber(groups.length)} {groups.length === 1 ? 'assessment' : 'assessments'}
            </p>
            {groups.map((group) => {
              const headingId = `my-assessment-${group.batchId}`;
              return (
                <section key={group.batchId} aria-labelledby={headingId} className="grid gap-3">
                  <div className="flex flex-wrap items-end justify-between gap-2">
                    <div className="min-w-0">
                      <h2 id={headingId} className="text-base font-semibold break-words">
                        {group.batchName}
                      </h2>
                      <p className="mt-0.5 flex flex-wrap items-center gap-x-3 gap-y-1 text-xs text-muted-foreground">
                        {group.customerName && (
                          <span className="flex items-center gap-1">
                            <Building2 className="size-3.5" aria-hidden />
                            {group.customerName}
                          </span>
                        )}
                        <span>
                          {formatNumber(group.questions.length)}{' '}
                          {group.questions.length === 1 ? 'question' : 'questions'}
                        </span>
                        {group.batchDueOn && (
                          <DueDate
                            dueOn={group.batchDueOn}
                            overdue={group.batchDueOn < new Date().toISOString().slice(0, 10)}
                            label="Assessment due"
                          />
                        )}
                      </p>
                    </div>
                    <Link
                      to={paths.assessment(group.batchId)}
                      className={buttonVariants({ variant: 'outline', size: 'sm' })}
                      aria-label={`Open the assessment ${group.batchName}`}
                    >
                      Open assessment
                      <ArrowRight aria-hidden />
                    </Link>
                  </div>
                  <ol className="grid gap-3" aria-label={`Questions of ${group.batchName}`}>
                    {group.questions.map((question) => (
                      <li key={question.id}>
                        <MyQuestionCard batchId={group.batchId} question={question} permissions={permissions} />
                      </li>
                    ))}
                  </ol>
                </section>
              );
            })}
          </div>
        )}
      </div>
    </div>
  );
}
