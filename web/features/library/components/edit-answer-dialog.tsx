import { Controller, useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { LoaderCircle } from 'lucide-react';
import { z } from 'zod';
import {
  ANSWER_STATUSES,
  AnswerStatus,
  LibraryFormValues,
  tagsFromText,
  type CanonicalAnswerView,
  type UpdateCanonicalAnswerBody,
} from '../../../../common/schemas/knowledge';
import { Button } from '../../../components/ui/button';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from '../../../components/ui/dialog';
import { Label } from '../../../components/ui/label';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '../../../components/ui/select';
import { toast, toastError } from '../../../components/ui/use-toast';
import { isApiRequestError } from '../../../lib/api';
import { formatDate } from '../../../lib/format';
import { useOrganizationUsers } from '../../../app/people/get-organization-users';
import { useUpdateCanonicalAnswer } from '../api/update-canonical-answer';
import type { LibraryPermissions } from '../use-library-permissions';
import { AnswerFormFields } from '../../../components/knowledge/answer-form-fields';
import { AnswerMeta } from './answer-meta';
import { STATUS_LABELS } from './status-badge';
import { VersionHistory } from './version-history';
import { reviewIntervalLabel, reviewIntervalOptions } from '../review-interval';

// Radix Select cannot hold an empty value, so "no owner" has a name of its own.
const NO_OWNER = 'none';

// The review interval is a Select of whole days, held as text like every Select value.
const EditFormValues = LibraryFormValues.extend({
  status: AnswerStatus,
  ownerId: z.string(),
  reviewIntervalDays: z.string(),
});
type EditFormValues = z.infer<typeof EditFormValues>;

function valuesOf(answer: CanonicalAnswerView): EditFormValues {
  return {
    question: answer.question,
    answer: answer.answer,
    tags: answer.tags.join(', '),
    status: answer.status,
    ownerId: answer.owner?.id ?? NO_OWNER,
    reviewIntervalDays: String(answer.reviewIntervalDays),
  };
}

/** Only what changed, so a contributor's draft edit never asks for owner, status or interval rights it lacks. */
function changesOf(answer: CanonicalAnswerView, values: EditFormValues): UpdateCanonicalAnswerBody {
  const body: UpdateCanonicalAnswerBody = {};
  if (values.question.trim() !== answer.question) body.question = values.question;
  if (values.answer.trim() !== answer.answer) body.answer = values.answer;
  const tags = tagsFromText(values.tags);
  if (tags.join('\u0000') !== answer.tags.join('\u0000')) body.tags = tags;
  if (values.status !== answer.status) body.status = values.status;
  const ownerId = values.ownerId === NO_OWNER ? null : values.ownerId;
  if (ownerId !== (answer.owner?.id ?? null)) body.ownerId = ownerId;
  const reviewIntervalDays = Number(values.reviewIntervalDays);
  if (reviewIntervalDays !== answer.reviewIntervalDays) body.reviewIntervalDays = reviewIntervalDays;
  return body;
}

interface EditAnswerDialogProps {
  /** The entry being edited; null closes the dialog. */
  answer: CanonicalAnswerView | null;
  onClose: () => void;
  permissions: LibraryPermissions;
}

/** Edits (or, without edit rights, shows) one entry: text, tags, status, owner and review interval, with history. */
export function EditAnswerDialog({ answer, onClose, permissions }: EditAnswerDialogProps) {
  return (
    <Dialog open={answer !== null} onOpenChange={(open) => !open && onClose()}>
      <DialogContent className="max-w-2xl">
        {/* Keyed so the form starts from the entry's current values each time one is opened. */}
        {answer && <EditAnswerForm key={answer.id} answer={answer} onClose={onClose} permissions={permissions} />}
      </DialogContent>
    </Dialog>
  );
}

function EditAnswerForm({
  answer,
  onClose,
  permissions,
}: {
  answer: CanonicalAnswerView;
  onClose: () => void;
  permissions: LibraryPermissions;
}) {
  const canEdit = permissions.canEdit(answer);
  const { canApprove } = permissions;
  const updateMutation = useUpdateCanonicalAnswer();
  const users = useOrganizationUsers({ enabled: canApprove });
  const {
    register,
    control,
    handleSubmit,
    setError,
    formState: { errors },
  } = useForm({ resolver: zodResolver(EditFormValues), defaultValues: valuesOf(answer) });

  const onSubmit = handleSubmit((values) => {
    const body = changesOf(answer, values);
    if (Object.keys(body).length === 0) {
      onClose();
      return;
    }
    updateMutation.mutate(
      { id: answer.id, body },
      {
        onSuccess: () => {
          toast({ title: 'Canonical answer updated successfully', variant: 'success' });
          onClose();
        },
        onError: (error) => {
          if (isApiRequestError(error) && error.status === 409) {
            setError('question', { message: error.message });
            return;
          }
          toastError(error, 'Failed to update answer');
        },
      },
    );
  });

  // The owner may have left the organization's list; keep them selectable so the form does not silently clear them.
  const ownerMissing = answer.owner && !users.data?.some((user) => user.id === answer.owner?.id);

  return (
    <>
      <DialogHeader>
        <DialogTitle>{canEdit ? 'Edit Canonical Answer' : 'Canonical Answer'}</DialogTitle>
        <DialogDescription>
          Created {formatDate(answer.createdAt)}
          {answer.createdBy ? ` by ${answer.createdBy.username}` : ''}
          {answer.source ? ` · Source: ${answer.source}` : ''}
        </DialogDescription>
      </DialogHeader>
      <AnswerMeta answer={answer} />
      <form onSubmit={(event) => void onSubmit(event)} noValidate className="grid gap-4">
        <AnswerFormFields
          question={register('question')}
          answer={register('answer')}
          tags={register('tags')}
          errors={{ question: errors.question?.message, answer: errors.answer?.message, tags: errors.tags?.message }}
          readOnly={!canEdit}
        />
        <div className="grid gap-4 sm:grid-cols-2">
          <div className="grid gap-1.5">
            <Label htmlFor="answer-status">Status</Label>
            <Controller
              control={control}
              name="status"
              render={({ field }) => (
                <Select value={field.value} onValueChange={field.onChange} disabled={!canApprove}>
                  <SelectTrigger id="answer-status" onBlur={field.onBlur}>
                    <SelectValue />
                  </SelectTrigger>
                  <SelectContent>
                    {ANSWER_STATUSES.map((status) => (
                      <SelectItem key={status} value={status}>
                        {STATUS_LABELS[status]}
                      </SelectItem>
                    ))}
                  </SelectContent>
                </Select>
              )}
            />
          </div>
          <div className="grid gap-1.5">
            <Label htmlFor="answer-owner">Owner</Label>
            <Controller
              control={control}
              name="ownerId"
              render={({ field }) => (
                <Select value={field.value} onValueChange={field.onChange} disabled={!canApprove || users.isPending}>
                  <SelectTrigger id="answer-owner" onBlur={field.onBlur}>
                    <SelectValue placeholder="No owner" />
                  </SelectTrigger>
                  <SelectContent>
                    <SelectItem value={NO_OWNER}>No owner</SelectItem>
                    {ownerMissing && answer.owner && (
                      <SelectItem value={answer.owner.id}>{answer.owner.username}</SelectItem>
                    )}
                    {users.data?.map((user) => (
                      <SelectItem key={user.id} value={user.id}>
                        {user.username}
                      </SelectItem>
                    ))}
                  </SelectContent>
                </Select>
              )}
            />
          </div>
        </div>
        <div className="grid gap-1.5 sm:w-1/2 sm:pr-2">
          <Label htmlFor="answer-review-interval">Review interval</Label>
          <Controller
            control={control}
            name="reviewIntervalDays"
            render={({ field }) => (
              <Select value={field.value} onValueChange={field.onChange} disabled={!canApprove}>
                <SelectTrigger id="answer-review-interval" onBlur={field.onBlur}>
                  <SelectValue />
                </SelectTrigger>
                <SelectContent>
                  {reviewIntervalOptions(answer.reviewIntervalDays).map((days) => (
                    <SelectItem key={days} value={String(days)}>
                      {reviewIntervalLabel(days)}
                    </SelectItem>
                  ))}
                </SelectContent>
              </Select>
            )}
          />
          <p className="text-xs text-muted-foreground">
            How often the owner confirms the answer is still true. Past it, the entry shows "Needs re-verification".
          </p>
        </div>
        {!canApprove && (
          <p className="text-xs text-muted-foreground">
            {canEdit
              ? 'Only managers and admins can change the status, owner or review interval.'
              : 'You can read this entry; only managers and admins can change it.'}
          </p>
        )}
        <DialogFooter>
          <Button variant="outline" onClick={onClose}>
            {canEdit ? 'Cancel' : 'Close'}
          </Button>
          {canEdit && (
            <Button type="submit" disabled={updateMutation.isPending}>
              {updateMutation.isPending && <LoaderCircle className="animate-spin" aria-hidden />}
              Save Changes
            </Button>
          )}
        </DialogFooter>
      </form>
      <VersionHistory answerId={answer.id} />
    </>
  );
}
