import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { Link, useSearchParams } from 'react-router';
import { LoaderCircle } from 'lucide-react';
import { ForgotPasswordBody, PASSWORD_RULE, ResetPasswordBody } from '../../../common/schemas/auth';
import { Alert, AlertDescription } from '../../components/ui/alert';
import { Button } from '../../components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../components/ui/card';
import { TextField } from '../../components/ui/text-field';
import { errorMessage } from '../../lib/api';
import { serverFieldError } from '../../lib/field-errors';
import { paths } from '../../paths';
import { useRequestPasswordReset, useResetPassword } from './api/reset-password';

/**
 * Where the reset e-mail's link lands (`/reset-password?token=…`: choose a new password) and where
 * "Forgot your password?" leads without a token (ask for the e-mail).
 */
export function ResetPasswordPage() {
  const [params] = useSearchParams();
  const token = params.get('token');
  return (
    <main className="flex min-h-screen items-center justify-center bg-surface px-6 py-10">
      <Card className="w-full max-w-md">
        {token ? <ChooseNewPassword token={token} /> : <RequestResetLink />}
        <CardContent className="pt-0 text-sm">
          <Link className="text-primary hover:underline" to={paths.login}>
            Back to sign in
          </Link>
        </CardContent>
      </Card>
    </main>
  );
}

function RequestResetLink() {
  const mutation = useRequestPasswordReset();
  const form = useForm({ resolver: zodResolver(ForgotPasswordBody), defaultValues: { email: '' } });
  const onSubmit = form.handleSubmit((values) => mutation.mutate(values));
  return (
    <>
      <CardHeader>
        <CardTitle className="text-xl">Reset your password</CardTitle>
        <CardDescription>Enter the e-mail address of your account and we will send you a reset link.</CardDescription>
      </CardHeader>
      <CardContent className="grid gap-4">
        {mutation.isSuccess && (
          <Alert>
            <AlertDescription>{mutation.data.message}</AlertDescription>
          </Alert>
        )}
        {mutation.isError && (
          <Alert variant="destructive">
            <AlertDescription>{errorMessage(mutation.error, 'Failed to send reset email')}</AlertDescription>
          </Alert>
        )}
        <form noValidate className="grid gap-4" onSubmit={(e) => void onSubmit(e)}>
          <TextField
            label="Email"
            type="email"
            autoComplete="email"
            error={form.formState.errors.email?.message}
            {...form.register('email')}
          />
          <Button type="submit" disabled={mutation.isPending}>
            {mutation.isPending && <LoaderCircle className="animate-spin" aria-hidden />}
            Send reset link
          </Button>
        </form>
      </CardContent>
    </>
  );
}

function ChooseNewPassword({ token }: { token: string }) {
  const mutation = useResetPassword();
  const form = useForm({
    resolver: zodResolver(ResetPasswordBody),
    defaultValues: { token, newPassword: '', confirmPassword: '' },
  });
  const onSubmit = form.handleSubmit((values) =>
    mutation.mutate(values, {
      onError: (error) => {
        const message = serverFieldError(error, 'newPassword');
        if (message) form.setError('newPassword', { message });
      },
    }),
  );
  const errors = form.formState.errors;
  // A sentence about the new password is shown under it, not a second time above the form.
  const formError = mutation.isError && !serverFieldError(mutation.error, 'newPassword');
  return (
    <>
      <CardHeader>
        <CardTitle className="text-xl">Choose a new password</CardTitle>
        <CardDescription>After the change, every device signed in to your account is signed out.</CardDescription>
      </CardHeader>
      <CardContent className="grid gap-4">
        {mutation.isSuccess ? (
          <Alert>
            <AlertDescription>{mutation.data.message}</AlertDescription>
          </Alert>
        ) : (
          <>
            {formError && (
              <Alert variant="destructive">
                <AlertDescription>{errorMessage(mutation.error, 'Failed to change password')}</AlertDescription>
              </Alert>
            )}
            <form noValidate className="grid gap-4" onSubmit={(e) => void onSubmit(e)}>
              <TextField
                label="New Password"
                type="password"
                autoComplete="new-password"
                hint={PASSWORD_RULE}
                error={errors.newPassword?.message}
                {...form.register('newPassword')}
              />
              <TextField
                label="Confirm Password"
                type="password"
                autoComplete="new-password"
                error={errors.confirmPassword?.message}
                {...form.register('confirmPassword')}
              />
              <Button type="submit" disabled={mutation.isPending}>
                {mutation.isPending && <LoaderCircle className="animate-spin" aria-hidden />}
                Set new password
              </Button>
            </form>
          </>
        )}
      </CardContent>
    </>
  );
}
