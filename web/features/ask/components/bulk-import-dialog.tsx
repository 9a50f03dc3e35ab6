import { Link } from 'react-router';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
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
import { paths } from '../../../paths';
import { ASSESSMENT_FILE_MAX_BYTES } from '../../../../common/schemas/assessments';
import {
  isQuestionnaireFile,
  QUESTIONNAIRE_ACCEPT,
  QUESTIONNAIRE_TOO_LARGE,
  selectedFileLine,
} from '../../../lib/questionnaire-files';

/** PRODUCT §9 bulk import dialog rules. */
const BulkImportValues = z.object({
  customerName: z
    .string()
    .trim()
    .min(1, 'Please enter a customer/account name')
    // The session title adds 'Bulk Assessment - ' and may hold 200 characters.
    .max(180, 'Customer name must be at most 180 characters'),
  file: z
    .instanceof(File, { message: 'Please select a file to import' })
    // The specification's CSV and Excel, and Word tables too: the server reads all of them.
    .refine((file) => isQuestionnaireFile(file.name), 'Please select a CSV or Excel file')
    .refine((file) => file.size <= ASSESSMENT_FILE_MAX_BYTES, QUESTIONNAIRE_TOO_LARGE),
});
type BulkImportInput = z.input<typeof BulkImportValues>;

export interface BulkImportRequest {
  customerName: string;
  file: File;
}

interface BulkImportDialogProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /**
   * Called with the customer and the file; the dialog then closes, keeping them until the import starts (the parent
   * remounts it then), so a 'Start New Assessment?' cancelled brings them back.
   */
  onImport: (request: BulkImportRequest) => void;
}

const EMPTY: Partial<BulkImportInput> = { customerName: '', file: undefined };

/**
 * PRODUCT 'Bulk Assessment Import': a customer name and a questionnaire file, which becomes an assessment answered in
 * the background and followed in a new chat. The server reads the file; its refusals arrive as the import's toast.
 */
export function BulkImportDialog({ open, onOpenChange, onImport }: BulkImportDialogProps) {
  const {
    register,
    handleSubmit,
    reset,
    setValue,
    watch,
    formState: { errors },
  } = useForm<BulkImportInput, unknown, z.output<typeof BulkImportValues>>({
    resolver: zodResolver(BulkImportValues),
    defaultValues: EMPTY,
    mode: 'onChange',
  });
  const file = watch('file');
  const customerName = watch('customerName');

  // PRODUCT §7: closing or cancelling clears the customer name and file.
  const close = (next: boolean) => {
    if (!next) reset(EMPTY);
    onOpenChange(next);
  };

  const onSubmit = handleSubmit((values) => {
    onImport({ customerName: values.customerName, file: values.file });
    onOpenChange(false);
  });

  return (
    <Dialog open={open} onOpenChange={close}>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>Bulk Assessment Import</DialogTitle>
          <DialogDescription>
            Verity answers every question of the customer&apos;s questionnaire in the background. A new chat, saved to
            history under their name, shows its progress. To check the detected columns first, import it from{' '}
            <Link to={paths.assessments} className="font-medium text-primary underline-offset-2 hover:underline">
              Bulk Assessments
            </Link>
            .
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
            accept={QUESTIONNAIRE_ACCEPT}
            hint="Upload CSV or Excel file containing security questions"
            error={errors.file?.message}
            className="[&_input]:h-auto [&_input]:py-1.5 [&_input]:file:mr-3 [&_input]:file:font-medium"
            onChange={(event) => {
              const picked = event.target.files?.[0];
              if (picked) setValue('file', picked, { shouldValidate: true, shouldDirty: true });
            }}
          />
          {file instanceof File && <p className="text-sm text-muted-foreground">{selectedFileLine(file)}</p>}
          <DialogFooter>
            <Button variant="outline" onClick={() => close(false)}>
              Cancel
            </Button>
            <Button type="submit" disabled={!customerName?.trim() || !(file instanceof File)}>
              Import Assessment
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}
