import { LoaderCircle } from 'lucide-react';
import { Button } from './button';

interface SaveChangesBarProps {
  /** The form differs from what is saved; both buttons wait for it. */
  dirty: boolean;
  /** A save is under way: both buttons wait and Save shows a spinner. */
  pending: boolean;
  /** Puts the saved values back in the form. */
  onDiscard: () => void;
}

/** The Discard Changes / Save Changes pair at the end of a settings form; Save submits the form. */
export function SaveChangesBar({ dirty, pending, onDiscard }: SaveChangesBarProps) {
  return (
    <div className="flex flex-wrap justify-end gap-2">
      <Button variant="outline" onClick={onDiscard} disabled={!dirty || pending}>
        Discard Changes
      </Button>
      <Button type="submit" disabled={!dirty || pending}>
        {pending && <LoaderCircle className="animate-spin" aria-hidden />}
        Save Changes
      </Button>
    </div>
  );
}
