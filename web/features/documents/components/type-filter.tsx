import { cn } from '../../../lib/cn';
import type { DocumentTypeFilter } from '../api/document-filter';

const FILTERS: ReadonlyArray<{ value: DocumentTypeFilter; label: string }> = [
  { value: 'all', label: 'All' },
  { value: 'pdf', label: 'PDFs' },
  { value: 'image', label: 'Images' },
  { value: 'text', label: 'Text' },
];

interface TypeFilterProps {
  value: DocumentTypeFilter;
  onChange: (value: DocumentTypeFilter) => void;
}

/** The specification filter buttons All / PDFs / Images / Text, as a segmented control ("Text" covers Word, sheets and text). */
export function TypeFilter({ value, onChange }: TypeFilterProps) {
  return (
    <div role="group" aria-label="Document type" className="inline-flex items-center rounded-lg bg-muted p-1">
      {FILTERS.map((filter) => (
        <button
          key={filter.value}
          type="button"
          aria-pressed={value === filter.value}
          onClick={() => onChange(filter.value)}
          className={cn(
            'rounded-md px-3 py-1 text-sm font-medium text-slate-600 transition-colors outline-none focus-visible:ring-2 focus-visible:ring-ring',
            value === filter.value ? 'bg-background text-foreground shadow-sm' : 'hover:text-foreground',
          )}
        >
          {filter.label}
        </button>
      ))}
    </div>
  );
}
