import { Link, useSearchParams } from 'react-router';
import { LoaderCircle } from 'lucide-react';
import { Alert, AlertDescription } from '../../components/ui/alert';
import { Button } from '../../components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../components/ui/card';
import { errorMessage } from '../../lib/api';
import { paths } from '../../paths';
import { useConfirmEmail } from './api/confirm-email';

/**
 * Where the link mailed to a new e-mail address lands (`/confirm-email?token=…`). The change waits for a click:
 * mail scanners that open links must not use up the single-use link, and nothing changes on a mere visit.
 */
export function ConfirmEmailPage() {
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';
  const mutation = useConfirmEmail();
  return (
    <main className="flex min-h-screen items-center justify-center bg-surface px-6 py-10">
      <Card className="w-full max-w-md">
        <CardHeader>
          <CardTitle className="text-xl">Confirm your e-mail address</CardTitle>
          <CardDescription>Your Verity account will use this address from now on.</CardDescription>
        </CardHeader>
        <CardContent className="grid gap-4">
          {mutation.isSuccess ? (
            <Alert>
              <AlertDescription>{mutation.data.message}</AlertDescription>
            </Alert>
          ) : (
            <>
              {mutation.isError && (
                <Alert variant="destructive">
                  <AlertDescription>
                    {errorMessage(mutation.error, 'Failed to confirm the e-mail address')}
                  </AlertDescription>
                </Alert>
              )}
              {!token && (
                <Alert variant="destructive">
                  <AlertDescription>This link is incomplete. Open the link from the e-mail again.</AlertDescription>
                </Alert>
              )}
              <Button disabled={!token || mutation.isPending} onClick={() => mutation.mutate({ token })}>
                {mutation.isPending && <LoaderCircle className="animate-spin" aria-hidden />}
                Confirm e-mail address
              </Button>
            </>
          )}
        </CardContent>
        <CardContent className="pt-0 text-sm">
          <Link className="text-primary hover:underline" to={paths.login}>
            Go to sign in
          </Link>
        </CardContent>
      </Card>
    </main>
  );
}
