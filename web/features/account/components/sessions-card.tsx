import { CircleAlert, LoaderCircle, LogOut, Monitor } from 'lucide-react';
import { Alert, AlertDescription } from '../../../components/ui/alert';
import { Badge } from '../../../components/ui/badge';
import { Button } from '../../../components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../../components/ui/card';
import { Spinner } from '../../../components/ui/spinner';
import { toast, toastError } from '../../../components/ui/use-toast';
import { errorMessage } from '../../../lib/api';
import { formatDateTime } from '../../../lib/format';
import { useSessions } from '../api/get-sessions';
import { useRevokeOtherSessions } from '../api/revoke-other-sessions';
import { describeUserAgent } from '../describe-user-agent';

/** Where the account is signed in, and 'Sign out of all other sessions' for a lost laptop or a shared computer. */
export function SessionsCard() {
  const sessions = useSessions();
  const revokeMutation = useRevokeOtherSessions();
  const others = sessions.data?.filter((s) => !s.current).length ?? 0;

  const revokeOthers = () => {
    revokeMutation.mutate(undefined, {
      onSuccess: ({ message }) =>
        toast({ title: 'Signed out of other sessions', description: message, variant: 'success' }),
      onError: (error) => toastError(error, 'Failed to sign out of other sessions'),
    });
  };

  return (
    <Card>
      <CardHeader className="flex-row flex-wrap items-start justify-between gap-3">
        <div className="grid gap-1.5">
          <CardTitle>Active Sessions</CardTitle>
          <CardDescription>
            {sessions.data
              ? others === 0
                ? 'You are signed in only here.'
                : `You are signed in here and in ${others} other ${others === 1 ? 'place' : 'places'}.`
              : 'Browsers and devices signed in to your account.'}
          </CardDescription>
        </div>
        <Button variant="outline" onClick={revokeOthers} disabled={others === 0 || revokeMutation.isPending}>
          {revokeMutation.isPending ? <LoaderCircle className="animate-spin" aria-hidden /> : <LogOut aria-hidden />}
          Sign out of all other sessions
        </Button>
      </CardHeader>
      <CardContent>
        {sessions.isPending ? (
          <div className="flex justify-center py-6">
            <Spinner label="Loading sessions" />
          </div>
        ) : sessions.isError ? (
          <Alert variant="destructive">
            <CircleAlert aria-hidden />
            <AlertDescription>{errorMessage(sessions.error, 'Could not load your sessions.')}</AlertDescription>
          </Alert>
        ) : (
          <ul className="divide-y rounded-lg border" aria-label="Active sessions">
            {sessions.data.map((session) => (
              <li key={`${session.createdAt}-${session.expiresAt}`} className="flex items-center gap-3 px-4 py-3">
                <Monitor className="size-4 shrink-0 text-muted-foreground" aria-hidden />
                <div className="min-w-0 flex-1">
                  <p className="flex items-center gap-2 text-sm font-medium">
                    {describeUserAgent(session.userAgent)}
                    {session.current && <Badge variant="success">This browser</Badge>}
                  </p>
                  <p className="text-xs text-muted-foreground">
                    Signed in {formatDateTime(session.createdAt)} · last active {formatDateTime(session.lastSeenAt)}
                    {session.ip ? ` · ${session.ip}` : ''}
                  </p>
                </div>
              </li>
            ))}
          </ul>
        )}
      </CardContent>
    </Card>
  );
}
