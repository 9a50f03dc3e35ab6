import { useEffect, useRef } from 'react';
import { Link } from 'react-router';
import { BookOpen, CircleCheck, CopyX, Upload } from 'lucide-react';
import { Button } from '../../../components/ui/button';
import { paths } from '../../../paths';
import { importOutcomeSummary, skippedDescription, type ImportOutcome } from '../import-preview-rules';

interface ImportResultPanelProps {
  outcome: ImportOutcome;
  /** Back to an empty form for the next file. */
  onImportMore: () => void;
}

/** Shown in place of the form once an import is done: what it added, and where to go next. */
export function ImportResultPanel({ outcome, onImportMore }: ImportResultPanelProps) {
  const headingRef = useRef<HTMLHeadingElement>(null);
  // The preview dialog that had the focus is gone, and so is the form's button it would return to.
  useEffect(() => headingRef.current?.focus(), []);
  const skipped = skippedDescription(outcome.skipped);
  const nothing = outcome.imported === 0;

  return (
    <section
      aria-labelledby="import-result-title"
      className="mt-6 flex flex-col items-start gap-3 rounded-xl border bg-surface p-6"
    >
      <div className="flex items-center gap-2.5">
        {nothing ? (
          <CopyX className="size-5 text-amber-600" aria-hidden />
        ) : (
          <CircleCheck className="size-5 text-emerald-600" aria-hidden />
        )}
        <h2
          id="import-result-title"
          ref={headingRef}
          tabIndex={-1}
          className="text-lg font-semibold tracking-tight outline-none"
        >
          {nothing ? 'Nothing was imported' : 'Import complete'}
        </h2>
      </div>
      <p className="text-sm text-slate-700">
        {importOutcomeSummary(outcome)}
        {skipped && ` ${skipped}`}
      </p>
      <div className="mt-1 flex flex-wrap gap-2">
        <Button asChild>
          <Link to={paths.library}>
            <BookOpen aria-hidden />
            Open the Knowledge Library
          </Link>
        </Button>
        <Button variant="outline" onClick={onImportMore}>
          <Upload aria-hidden />
          Import more
        </Button>
      </div>
    </section>
  );
}
