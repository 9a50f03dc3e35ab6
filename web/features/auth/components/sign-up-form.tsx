import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { LoaderCircle } from 'lucide-react';
import { PASSWORD_RULE, RegisterBody, type InvitationPreview } from '../../../../common/schemas/auth';
import { Button } from '../../../components/ui/button';
import { TextField } from '../../../components/ui/text-field';
import { errorMessage } from '../../../lib/api';
import { serverFieldError } from '../../../lib/field-errors';
import { paths } from '../../../paths';
import { useRegister } from '../api/register';

interface SignUpFormProps {
  /** A valid invitation: the account joins its organization instead of creating one. */
  invitation: { token: string; preview: InvitationPreview } | null;
  onError: (message: string | null) => void;
}

export function SignUpForm({ invitation, onError }: SignUpFormProps) {
  const registerMutation = useRegister();
  const {
    register,
    handleSubmit,
    setError,
    formState: { errors },
  } = useForm({
    resolver: zodResolver(RegisterBody),
    defaultValues: {
      username: '',
      email: invitation?.preview.email ?? '',
      password: '',
      organizationName: '',
      // Not an input: carried in the form values so RegisterBody's "organization name or invitation" rule applies.
      invitationToken: invitation?.token,
    },
  });

  const onSubmit = handleSubmit(({ username, email, password, organizationName }) => {
    onError(null);
    const body: RegisterBody = invitation
      ? { username, email, password, invitationToken: invitation.token }
      : { username, email, password, organizationName };
    registerMutation.mutate(body, {
      onSuccess: () => {
        window.location.assign(paths.dashboard);
      },
      onError: (error) => {
        const passwordError = serverFieldError(error, 'password');
        if (passwordError) {
          setError('password', { message: passwordError });
          return;
        }
        onError(errorMessage(error, 'Registration failed'));
      },
    });
  });

  const busy = registerMutation.isPending || registerMutation.isSuccess;

  return (
    <form onSubmit={(event) => void onSubmit(event)} noValidate className="grid gap-4">
      <TextField
        label="Username"
        autoComplete="username"
        autoCapitalize="none"
        spellCheck={false}
        error={errors.username?.message}
        {...register('username')}
      />
      <TextField label="Email" type="email" autoComplete="email" error={errors.email?.message} {...register('email')} />
      <TextField
        label="Password"
        type="password"
        autoComplete="new-password"
        hint={PASSWORD_RULE}
        error={errors.password?.message}
        {...register('password')}
      />
      {!invitation && (
        <TextField
          label="Organization Name"
          autoComplete="organization"
          error={errors.organizationName?.message}
          {...register('organizationName')}
        />
      )}
      <Button type="submit" className="w-full" disabled={busy}>
        {busy && <LoaderCircle className="animate-spin" aria-hidden />}
        Create Account
      </Button>
    </form>
  );
}
