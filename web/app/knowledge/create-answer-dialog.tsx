import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { LoaderCircle } from 'lucide-react';
import { LibraryFormValues, tagsFromText } from '../../../common/schemas/knowledge';
import { Button } from '../../components/ui/button';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from '../../components/ui/dialog';
import { toast, toastError } from '../../components/ui/use-toast';
import { isApiRequestError } from '../../lib/api';
import { AnswerFormFields } from '../../components/knowledge/answer-form-fields';
import { useCreateCanonicalAnswer } from './use-create-canonical-answer';

interface CreateAnswerDialogProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** Managers and admins add approved entries; contributors add drafts for them to approve. */
  asDraft: boolean;
  /** Prefills the question, e.g. one the Ask screen could not answer. Read when the dialog mounts. */
  defaultQuestion?: string;
  /** Called once the entry is saved, before the dialog closes. */
  onCreated?: () => void;
}

const EMPTY: LibraryFormValues = { question: '', answer: '', tags: '' };

/** PRODUCT "Add New Canonical Answer": question, answer and comma-separated tags. */
export function CreateAnswerDialog({
  open,
  onOpenChange,
  asDraft,
  defaultQuestion,
  onCreated,
}: CreateAnswerDialogProps) {
  const createMutation = useCreateCanonicalAnswer();
  const initial: LibraryFormValues = { ...EMPTY, question: defaultQuestion ?? '' };
  const {
    register,
    handleSubmit,
    reset,
    setError,
    formState: { errors },
  } = useForm({ resolver: zodResolver(LibraryFormValues), defaultValues: initial });

  const close = (next: boolean) => {
    if (!next) reset(initial);
    onOpenChange(next);
  };

  const onSubmit = handleSubmit((values) => {
    createMutation.mutate(
      {
        question: values.question,
        answer: values.answer,
        tags: tagsFromText(values.tags),
        status: asDraft ? 'draft' : 'approved',
      },
      {
        onSuccess: () => {
          toast({ title: 'Canonical answer created successfully', variant: 'success' });
          onCreated?.();
          close(false);
        },
        onError: (error) => {
          // A question already in the library belongs next to the question, where the user can fix it.
          if (isApiRequestError(error) && error.status === 409) {
            setError('question', { message: error.message });
            return;
          }
          toastError(error, 'Failed to create answer');
        },
      },
    );
  });

  return (
    <Dialog open={open} onOpenChange={close}>
      <DialogContent className="max-w-xl">
        <DialogHeader>
          <DialogTitle>Add New Canonical Answer</DialogTitle>
          <DialogDescription>
            {asDraft
              ? 'It is saved as a draft until a manager or admin approves it.'
              : 'Approved answers are reused wherever this question is asked.'}
          </DialogDescription>
        </DialogHeader>
        <form onSubmit={(event) => void onSubmit(event)} noValidate className="grid gap-4">
          <AnswerFormFields
            question={register('question')}
            answer={register('answer')}
            tags={register('tags')}
            errors={{ question: errors.question?.message, answer: errors.answer?.message, tags: errors.tags?.message }}
          />
          <DialogFooter>
            <Button variant="outline" onClick={() => close(false)}>
              Cancel
            </Button>
            <Button type="submit" disabled={createMutation.isPending}>
              {createMutation.isPending && <LoaderCircle className="animate-spin" aria-hidden />}
              {asDraft ? 'Save Draft' : 'Create Answer'}
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}
