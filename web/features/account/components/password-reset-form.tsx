import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { LoaderCircle, Mail } from 'lucide-react';
import { PASSWORD_RESET_TTL_MINUTES } from '../../../../common/constants';
import { ForgotPasswordBody } from '../../../../common/schemas/auth';
import { Button } from '../../../components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../../components/ui/card';
import { TextField } from '../../../components/ui/text-field';
import { toast, toastError } from '../../../components/ui/use-toast';
import { useRequestPasswordReset } from '../api/request-password-reset';

const SENT = 'Password reset email sent. Check your inbox for instructions.';

/** The specification Account Settings "Password Reset": e-mails a reset link (for when the current password is forgotten). */
export function PasswordResetForm({ email }: { email: string }) {
  const mutation = useRequestPasswordReset();
  const {
    register,
    handleSubmit,
    formState: { errors },
  } = useForm({ resolver: zodResolver(ForgotPasswordBody), defaultValues: { email } });

  const onSubmit = handleSubmit((values) => {
    mutation.mutate(values, {
      onSuccess: () => toast({ title: SENT, variant: 'success' }),
      onError: (error) => toastError(error, 'Failed to send reset email'),
    });
  });

  return (
    <Card>
      <CardHeader>
        <CardTitle>Password Reset</CardTitle>
        <CardDescription>
          Forgot your current password? We e-mail a link to choose a new one. It works once and expires after{' '}
          {PASSWORD_RESET_TTL_MINUTES} minutes.
        </CardDescription>
      </CardHeader>
      <CardContent>
        <form onSubmit={(event) => void onSubmit(event)} noValidate className="grid gap-5 sm:max-w-md">
          <TextField
            label="Email"
            type="email"
            autoComplete="email"
            error={errors.email?.message}
            {...register('email')}
          />
          {mutation.isSuccess && (
            <p role="status" className="text-sm text-success">
              {SENT}
            </p>
          )}
          <div>
            <Button type="submit" disabled={mutation.isPending}>
              {mutation.isPending ? <LoaderCircle className="animate-spin" aria-hidden /> : <Mail aria-hidden />}
              Send Reset Email
            </Button>
          </div>
        </form>
      </CardContent>
    </Card>
  );
}
