import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { z } from 'zod';
import { Email, FirstName, LastName, Username, type UserView } from '../../../../common/schemas/auth';
import { Alert, AlertDescription } from '../../../components/ui/alert';
import { SaveChangesBar } from '../../../components/ui/save-changes-bar';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../../components/ui/card';
import { TextField } from '../../../components/ui/text-field';
import { toast, toastError } from '../../../components/ui/use-toast';
import { isApiRequestError } from '../../../lib/api';
import { useUpdateProfile } from '../api/update-profile';

// The form holds text (an empty name is ''); the call sends null for an empty name.
const ProfileFormValues = z.object({ username: Username, email: Email, firstName: FirstName, lastName: LastName });
type ProfileFormValues = z.infer<typeof ProfileFormValues>;

const valuesOf = (user: UserView): ProfileFormValues => ({
  username: user.username,
  email: user.email,
  firstName: user.firstName ?? '',
  lastName: user.lastName ?? '',
});

const emailLinkSentence = (email: string) =>
  `We sent a link to ${email}. Your e-mail address changes when you open it (within 24 hours).`;

/**
 * The specification Account Settings "Profile": username and email (required), first and last name. A new e-mail address is
 * confirmed through a link mailed to it; until then the account keeps the old one.
 */
export function ProfileForm({ user }: { user: UserView }) {
  const mutation = useUpdateProfile();
  const [pendingEmail, setPendingEmail] = useState<string | null>(null);
  const {
    register,
    handleSubmit,
    reset,
    setError,
    formState: { errors, isDirty },
  } = useForm({ resolver: zodResolver(ProfileFormValues), defaultValues: valuesOf(user) });

  const onSubmit = handleSubmit((values) => {
    mutation.mutate(
      { ...values, firstName: values.firstName || null, lastName: values.lastName || null },
      {
        onSuccess: ({ user: saved, pendingEmail: requested }) => {
          reset(valuesOf(saved));
          setPendingEmail(requested);
          toast({
            title: 'Profile updated successfully',
            ...(requested && { description: emailLinkSentence(requested) }),
            variant: 'success',
          });
        },
        onError: (error) => {
          // 409 names what is taken: put the sentence on that field.
          if (isApiRequestError(error) && error.status === 409) {
            setError(/email/i.test(error.message) ? 'email' : 'username', { message: error.message });
            return;
          }
          toastError(error, 'Failed to update profile');
        },
      },
    );
  });

  return (
    <Card>
      <CardHeader>
        <CardTitle>Profile</CardTitle>
        <CardDescription>Your name and how you sign in. Your username or e-mail both work at sign-in.</CardDescription>
      </CardHeader>
      <CardContent>
        <form onSubmit={(event) => void onSubmit(event)} noValidate className="grid gap-5">
          {pendingEmail && (
            <Alert>
              <AlertDescription>{emailLinkSentence(pendingEmail)}</AlertDescription>
            </Alert>
          )}
          <div className="grid gap-5 sm:grid-cols-2">
            <TextField
              label="First Name"
              autoComplete="given-name"
              error={errors.firstName?.message}
              {...register('firstName')}
            />
            <TextField
              label="Last Name"
              autoComplete="family-name"
              error={errors.lastName?.message}
              {...register('lastName')}
            />
          </div>
          <TextField
            label="Username"
            autoComplete="username"
            autoCapitalize="none"
            spellCheck={false}
            error={errors.username?.message}
            {...register('username')}
          />
          <TextField
            label="Email"
            type="email"
            autoComplete="email"
            error={errors.email?.message}
            {...register('email')}
          />
          <SaveChangesBar dirty={isDirty} pending={mutation.isPending} onDiscard={() => reset()} />
        </form>
      </CardContent>
    </Card>
  );
}
