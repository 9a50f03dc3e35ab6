import { ChevronLeft, ChevronRight } from 'lucide-react';
import { cn } from '../../lib/cn';
import { formatNumber } from '../../lib/format';
import { Button } from './button';

interface PagerProps {
  /** Zero-based offset of the first item shown. */
  offset: number;
  pageSize: number;
  total: number;
  onOffsetChange: (offset: number) => void;
  /** A page is loading: both buttons wait for it. */
  busy?: boolean;
  /** What is being counted, e.g. 'questions'. */
  noun: string;
  className?: string;
}

/** 'Showing 26–50 of 112 questions' with Previous and Next; hidden when one page holds everything. */
export function Pager({ offset, pageSize, total, onOffsetChange, busy = false, noun, className }: PagerProps) {
  if (total <= pageSize && offset === 0) return null;
  const first = total === 0 ? 0 : offset + 1;
  const last = Math.min(offset + pageSize, total);
  return (
    <nav aria-label="Pages" className={cn('flex flex-wrap items-center justify-between gap-3', className)}>
      <p className="text-sm text-muted-foreground" aria-live="polite">
        Showing {formatNumber(first)}–{formatNumber(last)} of {formatNumber(total)} {noun}
      </p>
      <div className="flex items-center gap-2">
        <Button
          variant="outline"
          size="sm"
          onClick={() => onOffsetChange(Math.max(0, offset - pageSize))}
          disabled={busy || offset === 0}
        >
          <ChevronLeft aria-hidden />
          Previous
        </Button>
        <Button
          variant="outline"
          size="sm"
          onClick={() => onOffsetChange(offset + pageSize)}
          disabled={busy || offset + pageSize >= total}
        >
          Next
          <ChevronRight aria-hidden />
        </Button>
      </div>
    </nav>
  );
}
