import { useId } from 'react';
import { FileCheck2, Sparkles } from 'lucide-react';
import { PREFILLED_REPLACE_CONFIDENCE } from '../../../../common/constants';
import type { PrefilledAnswers } from '../../../../common/schemas/assessments';
import { RadioCard, RadioGroup } from '../../../components/ui/radio-group';
import { formatNumber } from '../../../lib/format';

interface PrefilledAnswersChoiceProps {
  /** Questions the customer had already answered in the file. */
  count: number;
  value: PrefilledAnswers;
  onChange: (value: PrefilledAnswers) => void;
  /** Only a workbook's answers can be replaced; a CSV or Word file always keeps the customer's. */
  canReplace: boolean;
}

/**
 * The answers a customer already wrote in their file are theirs: the filled file keeps them unless the user chooses
 * here to let Verity replace them, and then only where the server trusts its own answer.
 */
export function PrefilledAnswersChoice({ count, value, onChange, canReplace }: PrefilledAnswersChoiceProps) {
  const sentenceId = useId();
  if (!canReplace) {
    return (
      <p className="rounded-md border bg-background p-2.5 text-sm">
        <span className="font-medium">
          {formatNumber(count)} {count === 1 ? 'question already has an answer' : 'questions already have an answer'} in
          the file.
        </span>{' '}
        The filled file keeps them.
      </p>
    );
  }
  return (
    <div className="grid gap-2 rounded-md border bg-background p-2.5">
      <p id={sentenceId} className="text-sm font-medium">
        {formatNumber(count)} {count === 1 ? 'question already has an answer' : 'questions already have an answer'} in
        the file
      </p>
      <RadioGroup
        value={value}
        onValueChange={(next) => onChange(next === 'replace' ? 'replace' : 'keep')}
        className="grid-cols-1 sm:grid-cols-2"
        aria-labelledby={sentenceId}
      >
        <RadioCard value="keep" className="p-2.5">
          <FileCheck2 className="mt-0.5 size-4 shrink-0 text-emerald-600" aria-hidden />
          <span className="grid gap-0.5">
            <span className="font-medium">Keep the customer&apos;s answers</span>
            <span className="text-xs text-muted-foreground">The filled file never changes an answer they gave.</span>
          </span>
        </RadioCard>
        <RadioCard value="replace" className="p-2.5">
          <Sparkles className="mt-0.5 size-4 shrink-0 text-primary" aria-hidden />
          <span className="grid gap-0.5">
            <span className="font-medium">Replace them where Verity is confident</span>
            <span className="text-xs text-muted-foreground">
              Only with an approved answer or one at least {PREFILLED_REPLACE_CONFIDENCE}% confident.
            </span>
          </span>
        </RadioCard>
      </RadioGroup>
    </div>
  );
}
