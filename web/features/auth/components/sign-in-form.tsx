import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { LoaderCircle } from 'lucide-react';
import { Link } from 'react-router';
import { LoginBody } from '../../../../common/schemas/auth';
import { Button } from '../../../components/ui/button';
import { TextField } from '../../../components/ui/text-field';
import { errorMessage, isApiRequestError } from '../../../lib/api';
import { paths } from '../../../paths';
import { useLogin } from '../api/login';
import { DemoCredentialsHint } from './demo-credentials-hint';

interface SignInFormProps {
  onError: (message: string | null) => void;
  /** The organization requires SSO for this person: the page opens its SSO sign-in. */
  onSsoRequired?: () => void;
}

export function SignInForm({ onError, onSsoRequired }: SignInFormProps) {
  const loginMutation = useLogin();
  const {
    register,
    handleSubmit,
    setValue,
    formState: { errors },
  } = useForm({ resolver: zodResolver(LoginBody), defaultValues: { username: '', password: '' } });

  const onSubmit = handleSubmit((values) => {
    onError(null);
    loginMutation.mutate(values, {
      // PRODUCT §3: a full reload, so the app starts clean with the new session (no cached data of a previous user).
      onSuccess: () => {
        window.location.assign(paths.dashboard);
      },
      onError: (error) => {
        onError(errorMessage(error, 'Login failed'));
        if (isApiRequestError(error) && error.code === 'sso_required') onSsoRequired?.();
      },
    });
  });

  const busy = loginMutation.isPending || loginMutation.isSuccess;

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
      <TextField
        label="Password"
        type="password"
        autoComplete="current-password"
        error={errors.password?.message}
        {...register('password')}
      />
      <Link to={paths.resetPassword} className="-mt-2 justify-self-end text-xs text-primary hover:underline">
        Forgot your password?
      </Link>
      <Button type="submit" className="w-full" disabled={busy}>
        {busy && <LoaderCircle className="animate-spin" aria-hidden />}
        Sign In
      </Button>
      <DemoCredentialsHint
        onUse={(credentials) => {
          setValue('username', credentials.username, { shouldValidate: true });
          setValue('password', credentials.password, { shouldValidate: true });
        }}
      />
    </form>
  );
}
