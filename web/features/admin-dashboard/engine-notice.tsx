import { Info } from 'lucide-react';
import { useCan } from '../../app/me/use-can';
import { useEngineStatus } from './api/get-engine-status';

/**
 * For admins only: a one-line notice when answers come from keyword matching alone because no embedding model is
 * loaded (not installed, or its files failed their checksum), or from the fallback model because Verity's own was
 * refused. Everyone else sees nothing; answers still work.
 */
export function EngineNotice() {
  const isAdmin = useCan('engine:read');
  const status = useEngineStatus({ enabled: isAdmin });
  if (!isAdmin || !status.data || status.data.provider === 'none') return null;
  const { semantic, notice } = status.data;
  if (semantic && !notice) return null;
  return (
    <div
      role="status"
      className="flex items-start gap-2 border-b border-border bg-muted px-4 py-2 text-xs text-muted-foreground"
    >
      <Info className="mt-0.5 size-3.5 shrink-0" aria-hidden />
      {semantic ? (
        <p>{notice}</p>
      ) : (
        <p>
          Answers use keyword matching only: the embedding model is not installed on the server. Run{' '}
          <code className="font-mono">npm run models</code> there and restart Verity to match questions by meaning.
        </p>
      )}
    </div>
  );
}
