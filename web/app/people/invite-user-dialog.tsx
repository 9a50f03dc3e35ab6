import { useState } from 'react';
import { Controller, useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { LoaderCircle, MailCheck, Send } from 'lucide-react';
import { INVITATION_TTL_DAYS } from '../../../common/constants';
import { CreateInvitationBody, type InvitationCreated } from '../../../common/schemas/organizations';
import { Button } from '../../components/ui/button';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from '../../components/ui/dialog';
import { CopyField } from '../../components/ui/copy-field';
import { TextField } from '../../components/ui/text-field';
import { toast, toastError } from '../../components/ui/use-toast';
import { isApiRequestError } from '../../lib/api';
import { formatDate, formatLabel } from '../../lib/format';
import { useCreateInvitation } from './create-invitation';
import { RoleField } from '../../components/people/role-field';

interface InviteUserDialogProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** Named like the button that opens it: 'Invite user' in Workspace Settings, the specification's 'Add User' in the Admin Dashboard. */
  title?: string;
}

/** E-mails a single-use sign-up link with the role chosen, then shows the link so it can also be shared another way. */
export function InviteUserDialog({ open, onOpenChange, title = 'Invite user' }: InviteUserDialogProps) {
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      {/* Mounted only while open, so each opening starts from an empty form. */}
      <DialogContent>{open && <InviteUserForm title={title} onDone={() => onOpenChange(false)} />}</DialogContent>
    </Dialog>
  );
}

const DEFAULT_INVITATION: CreateInvitationBody = { email: '', role: 'viewer' };

function InviteUserForm({ title, onDone }: { title: string; onDone: () => void }) {
  const mutation = useCreateInvitation();
  const [sent, setSent] = useState<InvitationCreated | null>(null);
  const {
    register,
    control,
    handleSubmit,
    setError,
    formState: { errors },
  } = useForm({ resolver: zodResolver(CreateInvitationBody), defaultValues: DEFAULT_INVITATION });

  const onSubmit = handleSubmit((values) => {
    mutation.mutate(values, {
      onSuccess: (invitation) => {
        setSent(invitation);
        toast({
          title: 'Invitation sent',
          description: `An invitation was e-mailed to ${invitation.email}.`,
          variant: 'success',
        });
      },
      onError: (error) => {
        // 409: the address already has an account; the sentence belongs next to the field.
        if (isApiRequestError(error) && error.status === 409) {
          setError('email', { message: error.message });
          return;
        }
        toastError(error, 'Failed to send invitation');
      },
    });
  });

  if (sent) return <InvitationSent invitation={sent} onInviteAnother={() => setSent(null)} onDone={onDone} />;

  return (
    <>
      <DialogHeader>
        <DialogTitle>{title}</DialogTitle>
        <DialogDescription>
          We e-mail a sign-up link that works once and expires after {INVITATION_TTL_DAYS} days. The new account joins
          this organization with the role you choose.
        </DialogDescription>
      </DialogHeader>
      <form onSubmit={(event) => void onSubmit(event)} noValidate className="grid gap-4">
        <TextField
          label="Email"
          type="email"
          autoComplete="off"
          placeholder="name@company.com"
          error={errors.email?.message}
          {...register('email')}
        />
        <Controller
          control={control}
          name="role"
          render={({ field }) => (
            <RoleField id="invite-role" value={field.value} onChange={field.onChange} onBlur={field.onBlur} />
          )}
        />
        <DialogFooter>
          <Button variant="outline" onClick={onDone}>
            Cancel
          </Button>
          <Button type="submit" disabled={mutation.isPending}>
            {mutation.isPending ? <LoaderCircle className="animate-spin" aria-hidden /> : <Send aria-hidden />}
            Send Invitation
          </Button>
        </DialogFooter>
      </form>
    </>
  );
}

interface InvitationSentProps {
  invitation: InvitationCreated;
  /** Back to the form, which keeps what was typed. */
  onInviteAnother: () => void;
  onDone: () => void;
}

function InvitationSent({ invitation, onInviteAnother, onDone }: InvitationSentProps) {
  // The server leaves the link out only for API tokens; a signed-in admin always gets it.
  const url = invitation.url ?? '';
  return (
    <>
      <DialogHeader>
        <DialogTitle className="flex items-center gap-2">
          <MailCheck className="size-5 text-success" aria-hidden />
          Invitation sent
        </DialogTitle>
        <DialogDescription>
          {invitation.email} was invited as {formatLabel(invitation.role)}. You can also share the link yourself: it
          works once and expires on {formatDate(invitation.expiresAt)}.
        </DialogDescription>
      </DialogHeader>
      <CopyField id="invitation-link" label="Invitation link" value={url} />
      <DialogFooter>
        <Button variant="outline" onClick={onInviteAnother}>
          Invite another
        </Button>
        <Button onClick={onDone}>Done</Button>
      </DialogFooter>
    </>
  );
}
