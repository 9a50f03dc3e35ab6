import { LoaderCircle, Search, X } from 'lucide-react';
import { Input } from './input';

type SearchInputProps = {
  value: string;
  onChange: (value: string) => void;
  /** The typed text has not been searched yet (debounce or request in flight): a spinner replaces the clear button. */
  pending: boolean;
  placeholder: string;
  label: string;
  maxLength?: number;
};

/** A search box with a leading icon, a spinner while the search catches up, and a clear button. */
export function SearchInput({ value, onChange, pending, placeholder, label, maxLength }: SearchInputProps) {
  return (
    <div className="relative min-w-56 flex-1">
      <Search
        className="pointer-events-none absolute top-1/2 left-3 size-4 -translate-y-1/2 text-muted-foreground"
        aria-hidden
      />
      <Input
        type="search"
        value={value}
        onChange={(event) => onChange(event.target.value)}
        placeholder={placeholder}
        aria-label={label}
        maxLength={maxLength}
        className="pr-9 pl-9 [&::-webkit-search-cancel-button]:hidden"
      />
      {pending ? (
        <LoaderCircle
          className="absolute top-1/2 right-3 size-4 -translate-y-1/2 animate-spin text-muted-foreground"
          aria-hidden
        />
      ) : (
        value && (
          <button
            type="button"
            className="absolute top-1/2 right-2 -translate-y-1/2 rounded-sm p-1 text-muted-foreground outline-none hover:text-foreground focus-visible:ring-2 focus-visible:ring-ring"
            onClick={() => onChange('')}
            aria-label="Clear search"
          >
            <X className="size-4" aria-hidden />
          </button>
        )
      )}
    </div>
  );
}
