import { useState } from 'react';
import { Check, ChevronsUpDown, Tag, X } from 'lucide-react';
import { Button } from '../../../components/ui/button';
import {
  Command,
  CommandEmpty,
  CommandGroup,
  CommandInput,
  CommandItem,
  CommandList,
} from '../../../components/ui/command';
import { Popover, PopoverContent, PopoverTrigger } from '../../../components/ui/popover';
import { cn } from '../../../lib/cn';
import { formatNumber } from '../../../lib/format';
import { useLibraryTags } from '../../../app/knowledge/get-library-tags';

interface TagFilterProps {
  value: string | undefined;
  onChange: (tag: string | undefined) => void;
}

/** Narrows the library to one tag; a searchable list because real libraries carry hundreds of tags. */
export function TagFilter({ value, onChange }: TagFilterProps) {
  const [open, setOpen] = useState(false);
  const tags = useLibraryTags();

  return (
    <div className="flex items-center">
      <Popover open={open} onOpenChange={setOpen}>
        <PopoverTrigger asChild>
          <Button
            variant="outline"
            aria-haspopup="listbox"
            aria-expanded={open}
            className={cn('max-w-52 justify-between font-normal', value && 'rounded-r-none border-r-0')}
          >
            <Tag className="text-muted-foreground" aria-hidden />
            <span className="truncate">{value ?? 'All tags'}</span>
            {!value && <ChevronsUpDown className="text-muted-foreground" aria-hidden />}
          </Button>
        </PopoverTrigger>
        <PopoverContent className="w-64">
          <Command label="Tags">
            <CommandInput placeholder="Search tags..." />
            <CommandList>
              <CommandEmpty>{tags.isPending ? 'Loading tags...' : 'No tags found.'}</CommandEmpty>
              <CommandGroup>
                {tags.data?.map(({ tag, count }) => (
                  <CommandItem
                    key={tag}
                    value={tag}
                    onSelect={() => {
                      onChange(tag === value ? undefined : tag);
                      setOpen(false);
                    }}
                  >
                    <Check
                      className={cn('mt-0.5 size-4 shrink-0', tag === value ? 'opacity-100' : 'opacity-0')}
                      aria-hidden
                    />
                    <span className="min-w-0 flex-1 truncate">{tag}</span>
                    <span className="text-xs text-muted-foreground tabular-nums">{formatNumber(count)}</span>
                  </CommandItem>
                ))}
              </CommandGroup>
            </CommandList>
          </Command>
        </PopoverContent>
      </Popover>
      {value && (
        <Button
          variant="outline"
          size="icon"
          className="rounded-l-none"
          onClick={() => onChange(undefined)}
          aria-label="Clear tag filter"
        >
          <X aria-hidden />
        </Button>
      )}
    </div>
  );
}
