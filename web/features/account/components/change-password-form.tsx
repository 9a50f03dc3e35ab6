import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { LoaderCircle } from 'lucide-react';
import { ChangePasswordBody, PASSWORD_RULE } from '../../../../common/schemas/auth';
import { Button } from '../../../components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../../components/ui/card';
import { TextField } from '../../../components/ui/text-field';
import { toast, toastError } from '../../../components/ui/use-toast';
import { isApiRequestError } from '../../../lib/api';
import { serverFieldError } from '../../../lib/field-errors';
import { useChangePassword } from '../api/change-password';

const EMPTY = { currentPassword: '', newPassword: '', confirmPassword: '' };

/** The specification Account Settings "Security": current, new and confirm passwords ('New passwords don't match'). */
export function ChangePasswordForm() {
  const mutation = useChangePassword();
  const {
    register,
    handleSubmit,
    reset,
    setError,
    formState: { errors },
  } = useForm({ resolver: zodResolver(ChangePasswordBody), defaultValues: EMPTY });

  const onSubmit = handleSubmit((values) => {
    mutation.mutate(values, {
      onSuccess: () => {
        reset(EMPTY);
        toast({
          title: 'Password changed successfully',
          description: 'Your other sessions were signed out.',
          variant: 'success',
        });
      },
      onError: (error) => {
        const newPasswordError = serverFieldError(error, 'newPassword');
        if (newPasswordError) {
          setError('newPassword', { message: newPasswordError });
          return;
        }
        if (isApiRequestError(error) && error.code === 'validation_error' && /current password/i.test(error.message)) {
          setError('currentPassword', { message: error.message });
          return;
        }
        toastError(error, 'Failed to change password');
      },
    });
  });

  return (
    <Card>
      <CardHeader>
        <CardTitle>Change Password</CardTitle>
        <CardDescription>
          After the change, every other browser signed in to your account is signed out.
        </CardDescription>
      </CardHeader>
      <CardContent>
        <form onSubmit={(event) => void onSubmit(event)} noValidate className="grid gap-5 sm:max-w-md">
          <TextField
            label="Current Password"
            type="password"
            autoComplete="current-password"
            error={errors.currentPassword?.message}
            {...register('currentPassword')}
          />
          <TextField
            label="New Password"
            type="password"
            autoComplete="new-password"
            hint={PASSWORD_RULE}
            error={errors.newPassword?.message}
            {...register('newPassword')}
          />
          <TextField
            label="Confirm New Password"
            type="password"
            autoComplete="new-password"
            error={errors.confirmPassword?.message}
            {...register('confirmPassword')}
          />
          <div>
            <Button type="submit" disabled={mutation.isPending}>
              {mutation.isPending && <LoaderCircle className="animate-spin" aria-hidden />}
              Change Password
            </Button>
          </div>
        </form>
      </CardContent>
    </Card>
  );
}
