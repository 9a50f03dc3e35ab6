import { useId, useMemo, useRef, useState } from 'react';
import { CircleCheck, FileDown, TriangleAlert } from 'lucide-react';
import { BULK_ACCEPT_DEFAULT_CONFIDENCE } from '../../../../common/review-states';
import type { AssessmentQuestionView, BatchView } from '../../../../common/schemas/assessments';
import { Button } from '../../../components/ui/button';
import { Checkbox } from '../../../components/ui/checkbox';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from '../../../components/ui/dialog';
import { Input } from '../../../components/ui/input';
import { RadioCard, RadioGroup } from '../../../components/ui/radio-group';
import { Spinner } from '../../../components/ui/spinner';
import { formatNumber } from '../../../lib/format';
import { useQuery } from '@tanstack/react-query';
import { assessmentQueryOptions } from '../api/get-assessment';
import type { ExportFormat, ExportScope } from '../api/export-assessment';
import { exportChoices, type ExportChoiceValue } from '../export-labels';
import { exportSummary } from '../review-rules';
import type { ExportOptions } from '../use-assessment-actions';

interface ExportDialogProps {
  batch: BatchView;
  /** The questions when the page has them; otherwise the dialog loads them for its counts. */
  questions?: readonly AssessmentQuestionView[];
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** The format picked before the dialog opened (a list card's menu). */
  initialChoice?: ExportChoiceValue;
  onExport: (format: ExportFormat, options: ExportOptions) => void;
}

/**
 * Before the file goes to the customer: how many answers nobody reviewed, how many machine answers fall below a
 * confidence the user picks, and whether to write every answer or only the approved ones (the rest left blank).
 */
export function ExportDialog({ open, onOpenChange, ...props }: ExportDialogProps) {
  const content = useRef<HTMLDivElement>(null);
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent
        ref={content}
        className="max-w-xl"
        // The choice that matters most first (all answers or approved only), not the threshold field above it.
        onOpenAutoFocus={(event) => {
          const target = content.current?.querySelector<HTMLElement>('[data-autofocus]');
          if (!target) return;
          event.preventDefault();
          target.focus();
        }}
      >
        {/* Mounted only while open, so each opening starts from the defaults. */}
        {open && <ExportForm {...props} onDone={() => onOpenChange(false)} />}
      </DialogContent>
    </Dialog>
  );
}

function ExportForm({
  batch,
  questions,
  initialChoice,
  onExport,
  onDone,
}: Omit<ExportDialogProps, 'open' | 'onOpenChange'> & { onDone: () => void }) {
  const choices = exportChoices(batch);
  const [choiceValue, setChoiceValue] = useState<string>(initialChoice ?? choices[0]?.value ?? 'csv');
  const [withSources, setWithSources] = useState(false);
  const [scope, setScope] = useState<ExportScope>('all');
  const [drafts, setDrafts] = useState(false);
  const [machine, setMachine] = useState(true);
  const [threshold, setThreshold] = useState(String(BULK_ACCEPT_DEFAULT_CONFIDENCE));
  const ids = { threshold: useId(), format: useId(), scope: useId() };

  // The list page has no questions: load them (the detail's cache entry) for the counts.
  const loaded = useQuery({ ...assessmentQueryOptions(batch.id), enabled: !questions });
  const list = questions ?? loaded.data?.questions;
  const minConfidence = Math.min(100, Math.max(0, Number.parseInt(threshold, 10) || 0));
  const summary = useMemo(() => (list ? exportSummary(list, minConfidence) : null), [list, minConfidence]);
  const choice = choices.find((c) => c.value === choiceValue) ?? choices[0];
  // Verity's own answers nobody has reviewed yet (a person's unapproved answers are the drafts).
  // An answer taken from a draft library entry is a draft (the drafts checkbox), not one of these.
  const machineAnswers = summary
    ? summary.belowConfidence + summary.atOrAboveConfidence - (summary.drafts - summary.personDrafts)
    : 0;

  const submit = () => {
    if (!choice) return;
    onExport(choice.format, {
      generic: choice.generic,
      withSources: choice.format === 'xlsx' && withSources,
      drafts: scope === 'all' && drafts && (summary?.drafts ?? 0) > 0,
      machine: scope === 'approved' || machine || machineAnswers === 0,
      scope,
    });
    onDone();
  };

  return (
    <>
      <DialogHeader>
        <DialogTitle>Export answers</DialogTitle>
        <DialogDescription className="break-words">{batch.name}</DialogDescription>
      </DialogHeader>

      <section aria-label="Review status" className="grid gap-2">
        {!summary ? (
          <p className="flex items-center gap-2 text-sm text-muted-foreground">
            <Spinner className="size-4" label="Counting answers" />
            Counting answers...
          </p>
        ) : summary.unreviewed === 0 ? (
          <p className="flex items-center gap-2 rounded-md border border-emerald-200 bg-emerald-50 p-3 text-sm text-emerald-900">
            <CircleCheck className="size-4 shrink-0" aria-hidden />
            Every question is reviewed.
          </p>
        ) : (
          <div className="grid gap-2 rounded-md border border-amber-200 bg-amber-50 p-3 text-sm text-amber-950">
            <p className="flex items-start gap-2 font-medium">
              <TriangleAlert className="mt-0.5 size-4 shrink-0 text-amber-700" aria-hidden />
              {formatNumber(summary.unreviewed)} of {formatNumber(summary.total)}{' '}
              {summary.total === 1 ? 'question is' : 'questions are'} not reviewed yet
            </p>
            <ul className="grid gap-1 pl-6 text-xs">
              {summary.unanswered > 0 && <li>{formatNumber(summary.unanswered)} without an answer</li>}
              {summary.personDrafts > 0 && (
                <li>{formatNumber(summary.personDrafts)} written by a person and not approved</li>
              )}
              <li className="flex flex-wrap items-center gap-1.5">
                <span className="font-medium tabular-nums">{formatNumber(summary.belowConfidence)}</span>
                <label htmlFor={ids.threshold}>machine answers below</label>
                <span className="inline-flex items-center gap-1 whitespace-nowrap">
                  <Input
                    id={ids.threshold}
                    type="number"
                    inputMode="numeric"
                    min={0}
                    max={100}
                    value={threshold}
                    onChange={(event) => setThreshold(event.target.value)}
                    className="h-7 w-16 bg-background px-2 text-xs"
                  />
                  % confidence
                </span>
              </li>
              {summary.atOrAboveConfidence > 0 && (
                <li>
                  {formatNumber(summary.atOrAboveConfidence)} machine{' '}
                  {summary.atOrAboveConfidence === 1 ? 'answer' : 'answers'} at or above it, not approved yet
                </li>
              )}
            </ul>
          </div>
        )}
        {summary && (
          <p className="text-xs text-muted-foreground">
            {formatNumber(summary.approved)} approved · {formatNumber(summary.notApplicable)} not applicable
          </p>
        )}
      </section>

      <div className="grid gap-2">
        <p id={ids.scope} className="text-sm font-medium">
          Answers
        </p>
        <RadioGroup
          value={scope}
          onValueChange={(value) => setScope(value === 'approved' ? 'approved' : 'all')}
          aria-labelledby={ids.scope}
          className="grid-cols-1 sm:grid-cols-2"
        >
          <RadioCard value="all" className="p-2.5" data-autofocus={scope === 'all' ? '' : undefined}>
            <span className="grid gap-0.5">
              <span className="font-medium">Export all answers</span>
              <span className="text-xs text-muted-foreground">
                Approved answers, and the unreviewed ones you choose below.
              </span>
            </span>
          </RadioCard>
          <RadioCard value="approved" className="p-2.5" data-autofocus={scope === 'approved' ? '' : undefined}>
            <span className="grid gap-0.5">
              <span className="font-medium">Export approved only</span>
              <span className="text-xs text-muted-foreground">
                Others left blank. Questions marked not applicable say N/A.
              </span>
            </span>
          </RadioCard>
        </RadioGroup>
        {scope === 'all' && summary && machineAnswers > 0 && (
          <label className="flex items-center gap-2 text-sm text-slate-700">
            <Checkbox checked={machine} onCheckedChange={(checked) => setMachine(checked === true)} />
            Include {formatNumber(machineAnswers)} unreviewed {machineAnswers === 1 ? 'answer' : 'answers'} from Verity,
            as they are
          </label>
        )}
        {scope === 'all' && summary && summary.drafts > 0 && (
          <label className="flex items-center gap-2 text-sm text-slate-700">
            <Checkbox checked={drafts} onCheckedChange={(checked) => setDrafts(checked === true)} />
            Include {formatNumber(summary.drafts)} unapproved {summary.drafts === 1 ? 'draft' : 'drafts'}, marked as
            drafts
          </label>
        )}
      </div>

      <div className="grid gap-2">
        <p id={ids.format} className="text-sm font-medium">
          Format
        </p>
        <RadioGroup value={choiceValue} onValueChange={setChoiceValue} aria-labelledby={ids.format}>
          {choices.map((c) => (
            <RadioCard key={c.value} value={c.value} className="p-2.5">
              <span className="grid gap-0.5">
                <span className="font-medium">{c.label}</span>
                <span className="text-xs text-muted-foreground">{c.description}</span>
              </span>
            </RadioCard>
          ))}
        </RadioGroup>
        {choice?.format === 'xlsx' && (
          <label className="flex items-center gap-2 text-sm text-slate-700">
            <Checkbox checked={withSources} onCheckedChange={(checked) => setWithSources(checked === true)} />
            Add a Source column
          </label>
        )}
      </div>

      <DialogFooter>
        <Button variant="outline" onClick={onDone}>
          Cancel
        </Button>
        <Button onClick={submit} disabled={!choice}>
          <FileDown aria-hidden />
          Export
        </Button>
      </DialogFooter>
    </>
  );
}
