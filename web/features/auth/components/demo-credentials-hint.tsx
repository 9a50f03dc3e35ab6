import { KeyRound } from 'lucide-react';
import { Button } from '../../../components/ui/button';
import { useDemoCredentials } from '../api/get-demo-credentials';

interface DemoCredentialsHintProps {
  onUse: (credentials: { username: string; password: string }) => void;
}

/** Shown only when the server offers demo credentials; the hint is optional, so a failed lookup shows nothing. */
export function DemoCredentialsHint({ onUse }: DemoCredentialsHintProps) {
  const { data } = useDemoCredentials();
  if (!data?.available) return null;
  const { username, password } = data;

  return (
    <div className="flex items-start gap-3 rounded-lg border border-dashed border-indigo-200 bg-accent/60 px-3 py-2.5 text-sm">
      <KeyRound className="mt-0.5 size-4 shrink-0 text-primary" aria-hidden />
      <div className="min-w-0 flex-1">
        <p className="font-medium text-accent-foreground">Demo credentials</p>
        <p className="text-muted-foreground">
          Username <code className="rounded bg-background px-1 font-mono text-xs text-foreground">{username}</code> and
          password <code className="rounded bg-background px-1 font-mono text-xs text-foreground">{password}</code>
        </p>
      </div>
      <Button
        variant="link"
        size="sm"
        className="shrink-0"
        onClick={() => {
          onUse({ username, password });
        }}
      >
        Fill in
      </Button>
    </div>
  );
}
