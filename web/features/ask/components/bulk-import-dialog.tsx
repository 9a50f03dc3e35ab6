import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { LoaderCircle } from 'lucide-react';
import { z } from 'zod';
import { Button } from '../../../components/ui/button';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from '../../../components/ui/dialog';
import { TextField } from '../../../components/ui/text-field';
import { formatNumber } from '../../../lib/format';
import {
  hasQuestionnaireExtension,
  QUESTIONNAIRE_EXTENSIONS,
  QuestionnaireError,
  readQuestionnaire,
} from '../read-questionnaire';

/** SPEC §5 bulk import dialog rules. */
const BulkImportValues = z.object({
  customerName: z
    .string()
    .trim()
    .min(1, 'Please enter a customer/account name')
    // The session title adds 'Bulk Assessment - ' and may hold 200 characters.
    .max(180, 'Customer name must be at most 180 characters'),
  file: z
    .instanceof(File, { message: 'Please select a file to import' })
    .refine((file) => hasQuestionnaireExtension(file.name), 'Please select a CSV or Excel file'),
});
type BulkImportInput = z.input<typeof BulkImportValues>;

export interface BulkImportRequest {
  customerName: string;
  fileName: string;
  questions: string[];
}

interface BulkImportDialogProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** Called with the questions read from the file; the dialog then closes and clears. */
  onImport: (request: BulkImportRequest) => void;
}

const EMPTY: Partial<BulkImportInput> = { customerName: '', file: undefined };

/** SPEC 'Bulk Assessment Import': a customer name and a questionnaire file whose questions are answered in a new chat. */
export function BulkImportDialog({ open, onOpenChange, onImport }: BulkImportDialogProps) {
  const {
    register,
    handleSubmit,
    reset,
    setValue,
    setError,
    watch,
    formState: { errors, isSubmitting },
  } = useForm<BulkImportInput, unknown, z.output<typeof BulkImportValues>>({
    resolver: zodResolver(BulkImportValues),
    defaultValues: EMPTY,
    mode: 'onChange',
  });
  const file = watch('file');
  const customerName = watch('customerName');

  // SPEC §4: closing or cancelling clears the customer name and file.
  const close = (next: boolean) => {
    if (!next) reset(EMPTY);
    onOpenChange(next);
  };

  const onSubmit = handleSubmit(async (values) => {
    try {
      const questions = await readQuestionnaire(values.file);
      onImport({ customerName: values.customerName, fileName: values.file.name, questions });
      close(false);
    } catch (error) {
      setError('file', {
        message: error instanceof QuestionnaireError ? error.message : 'This file could not be read.',
      });
    }
  });

  return (
    <Dialog open={open} onOpenChange={close}>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>Bulk Assessment Import</DialogTitle>
          <DialogDescription>
            Every question in a customer&apos;s questionnaire is answered in a new chat, saved to history under their
            name.
          </DialogDescription>
        </DialogHeader>
        <form onSubmit={(event) => void onSubmit(event)} noValidate className="grid gap-4">
          <TextField
            label="Customer/Account Name *"
            placeholder="e.g. Acme Corp, Globex, Initech"
            hint="This will be used for tracking and chat history organization"
            error={errors.customerName?.message}
            autoComplete="off"
            {...register('customerName')}
          />
          <TextField
            label="Assessment File *"
            type="file"
            accept={[...QUESTIONNAIRE_EXTENSIONS, 'text/csv'].join(',')}
            hint="Upload CSV or Excel file containing security questions"
            error={errors.file?.message}
            className="[&_input]:h-auto [&_input]:py-1.5 [&_input]:file:mr-3 [&_input]:file:font-medium"
            onChange={(event) => {
              const picked = event.target.files?.[0];
              if (picked) setValue('file', picked, { shouldValidate: true, shouldDirty: true });
            }}
          />
          {file instanceof File && (
            <p className="text-sm text-muted-foreground">
              Selected: {file.name} ({formatNumber(Math.round((file.size / 1024) * 10) / 10)} KB)
            </p>
          )}
          <DialogFooter>
            <Button variant="outline" onClick={() => close(false)}>
              Cancel
            </Button>
            <Button type="submit" disabled={!customerName?.trim() || !(file instanceof File) || isSubmitting}>
              {isSubmitting && <LoaderCircle className="animate-spin" aria-hidden />}
              Import Assessment
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}
