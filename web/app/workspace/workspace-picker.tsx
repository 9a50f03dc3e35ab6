import { useId, useState } from 'react';
import { Check, ChevronsUpDown, Layers } from 'lucide-react';
import { Button } from '../../components/ui/button';
import {
  Command,
  CommandEmpty,
  CommandGroup,
  CommandInput,
  CommandItem,
  CommandList,
} from '../../components/ui/command';
import { Popover, PopoverContent, PopoverTrigger } from '../../components/ui/popover';
import { cn } from '../../lib/cn';
import { useWorkspace } from './use-workspace';

// Items are keyed by id (names need not be unique), so searching must look at the name and description only.
function matchWorkspace(_value: string, search: string, keywords?: string[]): number {
  const needle = search.trim().toLowerCase();
  if (!needle) return 1;
  return (keywords ?? []).some((keyword) => keyword.toLowerCase().includes(needle)) ? 1 : 0;
}

/** PRODUCT §2 sidebar workspace picker; hidden when the organization has no workspaces to choose from. */
export function WorkspacePicker() {
  const { workspaces, currentWorkspace, selectWorkspace } = useWorkspace();
  const [open, setOpen] = useState(false);
  const labelId = useId();
  const valueId = useId();

  if (workspaces.length === 0) return null;

  return (
    <div className="grid gap-1.5">
      <span id={labelId} className="text-xs font-medium tracking-wide text-muted-foreground uppercase">
        Workspace
      </span>
      <Popover open={open} onOpenChange={setOpen}>
        <PopoverTrigger asChild>
          <Button
            variant="outline"
            aria-haspopup="listbox"
            aria-expanded={open}
            // Named by its label and then its value ("Workspace Default"), as a labelled select would be.
            aria-labelledby={`${labelId} ${valueId}`}
            className="w-full justify-between px-3 font-normal"
          >
            <span className="flex min-w-0 items-center gap-2">
              <Layers className="text-muted-foreground" aria-hidden />
              <span id={valueId} className={cn('truncate', !currentWorkspace && 'text-muted-foreground')}>
                {currentWorkspace?.name ?? 'Select workspace...'}
              </span>
            </span>
            <ChevronsUpDown className="text-muted-foreground" aria-hidden />
          </Button>
        </PopoverTrigger>
        <PopoverContent className="w-[200px]">
          <Command filter={matchWorkspace} label="Workspaces">
            <CommandInput placeholder="Search workspaces..." />
            <CommandList>
              <CommandEmpty>No workspace found.</CommandEmpty>
              <CommandGroup>
                {workspaces.map((workspace) => {
                  const selected = workspace.id === currentWorkspace?.id;
                  return (
                    <CommandItem
                      key={workspace.id}
                      value={workspace.id}
                      keywords={[workspace.name, workspace.description ?? '']}
                      data-current={selected || undefined}
                      onSelect={() => {
                        selectWorkspace(workspace.id);
                        setOpen(false);
                      }}
                    >
                      <Check
                        className={cn('mt-0.5 size-4 shrink-0', selected ? 'opacity-100' : 'opacity-0')}
                        aria-hidden
                      />
                      <span className="grid min-w-0">
                        <span className="truncate font-medium">
                          {workspace.name}
                          {selected && <span className="sr-only"> (current)</span>}
                        </span>
                        {workspace.description && (
                          <span className="line-clamp-2 text-xs text-muted-foreground">{workspace.description}</span>
                        )}
                      </span>
                    </CommandItem>
                  );
                })}
              </CommandGroup>
            </CommandList>
          </Command>
        </PopoverContent>
      </Popover>
      {currentWorkspace && (
        <p className="truncate text-xs text-muted-foreground">
          Current workspace: <span className="font-medium text-foreground">{currentWorkspace.name}</span>
        </p>
      )}
    </div>
  );
}
