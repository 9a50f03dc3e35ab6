import { CircleAlert } from 'lucide-react';
import { Alert, AlertDescription } from './alert';
import { Button } from './button';
import { errorMessage } from '../../lib/api';

interface LoadErrorProps {
  error: unknown;
  /** Shown when the error carries no sentence of its own. */
  fallback: string;
  onRetry: () => void;
  className?: string;
}

/** A failed load, its reason and a way to try again. */
export function LoadError({ error, fallback, onRetry, className }: LoadErrorProps) {
  return (
    <Alert variant="destructive" className={className}>
      <CircleAlert aria-hidden />
      <AlertDescription className="flex flex-wrap items-center justify-between gap-3">
        {errorMessage(error, fallback)}
        <Button variant="outline" size="sm" onClick={onRetry}>
          Try again
        </Button>
      </AlertDescription>
    </Alert>
  );
}
