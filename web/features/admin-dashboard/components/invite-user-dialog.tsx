import { useState } from 'react';
import { Controller, useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { Copy, LoaderCircle, MailCheck } from 'lucide-react';
import { INVITATION_TTL_DAYS } from '../../../../common/constants';
import { CreateInvitationBody, type InvitationCreated } from '../../../../common/schemas/organizations';
import type { z } from 'zod';
import { Alert, AlertDescription } from '../../../components/ui/alert';
import { Button } from '../../../components/ui/button';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from '../../../components/ui/dialog';
import { Input } from '../../../components/ui/input';
import { Label } from '../../../components/ui/label';
import { TextField } from '../../../components/ui/text-field';
import { toast } from '../../../components/ui/use-toast';
import { errorMessage, isApiRequestError } from '../../../lib/api';
import { useInviteUser } from '../api/invite-user';
import { ROLE_SUMMARIES, RoleSelect } from './role-select';

type InviteValues = z.input<typeof CreateInvitationBody>;
const EMPTY: InviteValues = { email: '', role: 'viewer' };

async function copyLink(url: string) {
  try {
    await navigator.clipboard.writeText(url);
    toast({ title: 'Copied to clipboard', variant: 'success' });
  } catch {
    toast({ title: 'Failed to copy', variant: 'destructive' });
  }
}

/** Add User: an invitation by e-mail with the role the person will have once they sign up. */
export function InviteUserDialog({ open, onOpenChange }: { open: boolean; onOpenChange: (open: boolean) => void }) {
  const invite = useInviteUser();
  const [sent, setSent] = useState<InvitationCreated | null>(null);
  const {
    register,
    control,
    handleSubmit,
    reset,
    setError,
    watch,
    formState: { errors },
  } = useForm<InviteValues, unknown, z.output<typeof CreateInvitationBody>>({
    resolver: zodResolver(CreateInvitationBody),
    defaultValues: EMPTY,
  });
  const role = watch('role');

  const close = (next: boolean) => {
    if (!next) {
      reset(EMPTY);
      setSent(null);
      invite.reset();
    }
    onOpenChange(next);
  };

  const onSubmit = handleSubmit((values) => {
    invite.mutate(values, {
      onSuccess: (created) => {
        setSent(created);
        toast({
          title: 'Invitation sent',
          description: `${created.email} can now join as ${created.role}.`,
          variant: 'success',
        });
      },
      onError: (error) => {
        // "Already a member" and "account exists" are about the address: say so next to it.
        if (isApiRequestError(error) && error.status === 409) {
          setError('email', { message: error.message });
          return;
        }
        toast({
          title: 'Error',
          description: errorMessage(error, 'Failed to send the invitation'),
          variant: 'destructive',
        });
      },
    });
  });

  return (
    <Dialog open={open} onOpenChange={close}>
      <DialogContent className="max-w-md">
        <DialogHeader>
          <DialogTitle>Add User</DialogTitle>
          <DialogDescription>
            We e-mail an invitation link, valid for {INVITATION_TTL_DAYS} days and usable once, with the role below.
          </DialogDescription>
        </DialogHeader>
        {sent ? (
          <div className="grid gap-4">
            <Alert variant="info">
              <MailCheck aria-hidden />
              <AlertDescription>
                Invitation sent to <strong className="font-medium">{sent.email}</strong>. If the e-mail does not arrive,
                share this link with them instead:
              </AlertDescription>
            </Alert>
            <div className="flex gap-2">
              <Input readOnly value={sent.url} aria-label="Invitation link" className="font-mono text-xs" />
              <Button variant="outline" onClick={() => void copyLink(sent.url)}>
                <Copy aria-hidden />
                Copy
              </Button>
            </div>
            <DialogFooter>
              <Button variant="outline" onClick={() => setSent(null)}>
                Invite another
              </Button>
              <Button onClick={() => close(false)}>Done</Button>
            </DialogFooter>
          </div>
        ) : (
          <form onSubmit={(event) => void onSubmit(event)} noValidate className="grid gap-4">
            <TextField
              label="Email"
              type="email"
              autoComplete="off"
              placeholder="name@company.com"
              error={errors.email?.message}
              {...register('email')}
            />
            <div className="grid gap-1.5">
              <Label htmlFor="invite-role">Role</Label>
              <Controller
                control={control}
                name="role"
                render={({ field }) => <RoleSelect id="invite-role" value={field.value} onChange={field.onChange} />}
              />
              <p className="text-xs text-muted-foreground">{ROLE_SUMMARIES[role]}</p>
            </div>
            <DialogFooter>
              <Button variant="outline" onClick={() => close(false)}>
                Cancel
              </Button>
              <Button type="submit" disabled={invite.isPending}>
                {invite.isPending && <LoaderCircle className="animate-spin" aria-hidden />}
                Send Invitation
              </Button>
            </DialogFooter>
          </form>
        )}
      </DialogContent>
    </Dialog>
  );
}
