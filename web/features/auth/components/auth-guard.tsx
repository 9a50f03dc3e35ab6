import type { ReactNode } from 'react';
import { Navigate } from 'react-router';
import { Button } from '../../../components/ui/button';
import { Spinner } from '../../../components/ui/spinner';
import { errorMessage } from '../../../lib/api';
import { paths } from '../../../paths';
import { useMe } from '../../../app/me/get-me';

function GuardMessage({ children }: { children: ReactNode }) {
  return (
    <div className="flex min-h-screen flex-col items-center justify-center gap-3 bg-surface text-sm text-muted-foreground">
      {children}
    </div>
  );
}

/** PRODUCT §2: every route but /login needs a signed-in user; others are sent to /login. */
export function AuthGuard({ children }: { children: ReactNode }) {
  const me = useMe();

  if (me.isPending) {
    return (
      <GuardMessage>
        <Spinner label="Checking your session" />
        <p>Loading...</p>
      </GuardMessage>
    );
  }

  // A failure that is not "signed out" (server down, 500) would loop through /login, so offer a retry instead.
  if (me.isError) {
    return (
      <GuardMessage>
        <p role="alert" className="text-foreground">
          {errorMessage(me.error, 'Could not check your session.')}
        </p>
        <Button variant="outline" onClick={() => void me.refetch()}>
          Try again
        </Button>
      </GuardMessage>
    );
  }

  if (!me.data) {
    return (
      <GuardMessage>
        <p>Redirecting to login...</p>
        <Navigate to={paths.login} replace />
      </GuardMessage>
    );
  }

  return children;
}
