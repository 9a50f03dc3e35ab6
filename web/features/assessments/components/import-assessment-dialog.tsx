import { useRef, useState, type ChangeEvent, type FormEvent } from 'react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { LoaderCircle } from 'lucide-react';
import { z } from 'zod';
import {
  ASSESSMENT_FILE_MAX_BYTES,
  ImportFileFields,
  type PrefilledAnswers,
  type PreviewResponse,
  type SheetMapping,
} from '../../../../common/schemas/assessments';
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
import { Spinner } from '../../../components/ui/spinner';
import { TextField } from '../../../components/ui/text-field';
import { TextareaField } from '../../../components/ui/textarea-field';
import { toast, toastError } from '../../../components/ui/use-toast';
import { errorMessage } from '../../../lib/api';
import {
  isQuestionnaireFile,
  QUESTIONNAIRE_ACCEPT,
  QUESTIONNAIRE_TOO_LARGE,
  selectedFileLine,
} from '../../../lib/questionnaire-files';
import { useForgetQuestionnaireLayout } from '../api/forget-questionnaire-layout';
import { useImportAssessment } from '../api/import-assessment';
import { usePreviewQuestionnaire, type PickedFile } from '../api/preview-questionnaire';
import { INVALID_FILE, MISSING_INFORMATION, missingFieldErrors } from '../import-assessment-rules';
import { mappingOf } from '../questionnaire-mapping';
import { QuestionnairePreview } from './questionnaire-preview';

const NO_MAPPING: readonly SheetMapping[] = [];
const NO_SKIPS: Readonly<Record<string, string>> = {};

/** Detection's reason for each sheet it judged not for answering, by sheet name. */
function skipsOf(preview: PreviewResponse): Record<string, string> {
  return Object.fromEntries(preview.sheets.flatMap((sheet) => (sheet.skipped ? [[sheet.name, sheet.skipped]] : [])));
}

// The same rules the server applies to the multipart fields, with the name required here.
const ImportAssessmentValues = z.object({
  name: ImportFileFields.shape.name.unwrap(),
  customerName: ImportFileFields.shape.customerName.unwrap(),
  assessmentType: ImportFileFields.shape.assessmentType.unwrap(),
  description: ImportFileFields.shape.description.unwrap(),
});
type ImportAssessmentValues = z.infer<typeof ImportAssessmentValues>;

const EMPTY: ImportAssessmentValues = { name: '', customerName: '', assessmentType: '', description: '' };

interface ImportAssessmentDialogProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
}

function missingInformation() {
  toast({ title: 'Missing information', description: MISSING_INFORMATION, variant: 'destructive' });
}

/**
 * PRODUCT 'Import Assessment': name, customer, type, description and a questionnaire file. Choosing the file shows
 * what the server found in it (sheets imported or not and why, question and answer columns, the columns the filled
 * file writes to, count, answers already given, first questions) before anything is stored; a changed column is
 * previewed again and sent with the import, and so is the choice about the customer's own answers.
 */
export function ImportAssessmentDialog({ open, onOpenChange }: ImportAssessmentDialogProps) {
  const importMutation = useImportAssessment();
  const forgetLayout = useForgetQuestionnaireLayout();
  const fileInput = useRef<HTMLInputElement>(null);
  const nextToken = useRef(1);
  const [picked, setPicked] = useState<PickedFile | null>(null);
  const [fileError, setFileError] = useState<string | null>(null);
  // Undefined until the user changes a column: the server's own detection is used as it stands.
  const [mapping, setMapping] = useState<SheetMapping[] | undefined>(undefined);
  const preview = usePreviewQuestionnaire(picked, mapping);
  // What detection found in this file before any change, so a column given up can come back and a sheet judged
  // not for answering keeps its reason.
  const [detected, setDetected] = useState<{
    token: number;
    mapping: SheetMapping[];
    skips: Record<string, string>;
  } | null>(null);
  // The customer's own answers are kept unless the user says otherwise.
  const [prefilled, setPrefilled] = useState<PrefilledAnswers>('keep');
  if (
    picked &&
    mapping === undefined &&
    preview.data &&
    !preview.isPlaceholderData &&
    detected?.token !== picked.token
  ) {
    setDetected({ token: picked.token, mapping: mappingOf(preview.data), skips: skipsOf(preview.data) });
  }

  const {
    register,
    handleSubmit,
    reset,
    getValues,
    setError,
    clearErrors,
    formState: { errors },
  } = useForm<ImportAssessmentValues>({ resolver: zodResolver(ImportAssessmentValues), defaultValues: EMPTY });

  const clearFile = () => {
    setPicked(null);
    setMapping(undefined);
    setPrefilled('keep');
    if (fileInput.current) fileInput.current.value = '';
  };

  const close = (next: boolean) => {
    if (!next) {
      reset(EMPTY);
      clearFile();
      setFileError(null);
      importMutation.reset();
    }
    onOpenChange(next);
  };

  const pickFile = (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    if (!file) return;
    if (!isQuestionnaireFile(file.name)) {
      clearFile();
      setFileError(INVALID_FILE);
      toast({ title: 'Invalid file', description: INVALID_FILE, variant: 'destructive' });
      return;
    }
    if (file.size > ASSESSMENT_FILE_MAX_BYTES) {
      clearFile();
      setFileError(QUESTIONNAIRE_TOO_LARGE);
      return;
    }
    setFileError(null);
    setMapping(undefined);
    setPrefilled('keep');
    setPicked({ token: nextToken.current++, file });
  };

  // Forgotten: the same file is previewed afresh under a new token, so detection's reading is what the dialog keeps
  // as "detected" again, and no change made on the remembered layout carries over.
  const forget = (id: string) => {
    forgetLayout.mutate(id, {
      onSuccess: () => {
        if (!picked) return;
        setMapping(undefined);
        setPicked({ token: nextToken.current++, file: picked.file });
        toast({ title: 'Layout forgotten', description: 'The file is read as detected again.', variant: 'success' });
      },
      onError: (error) => toastError(error, 'The remembered layout could not be forgotten'),
    });
  };

  const start = handleSubmit((values) => {
    if (!picked) return;
    importMutation.mutate(
      { ...values, file: picked.file, mapping, prefilledAnswers: prefilled },
      {
        onSuccess: (result) => {
          toast({
            title: 'Assessment created',
            description: `Processing ${String(result.totalQuestions)} questions. Estimated time: ${result.estimatedTime}`,
            variant: 'success',
          });
          close(false);
        },
        onError: (error) => toastError(error, 'Failed to create the assessment'),
      },
    );
  });

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const missing = missingFieldErrors({ name: getValues('name'), hasFile: picked !== null });
    if (missing.name || missing.file) {
      // Each field says what it still needs, so choosing the file leaves no sentence asking for one.
      if (missing.name) setError('name', { message: missing.name });
      if (missing.file) setFileError((current) => current ?? missing.file ?? null);
      missingInformation();
      return;
    }
    void start(event);
  };

  const previewData = preview.data;
  const noQuestions = previewData !== undefined && previewData.totalQuestions === 0;
  const canStart =
    !importMutation.isPending &&
    !(picked && (preview.isPending || preview.isError || noQuestions || preview.isFetching));

  return (
    <Dialog open={open} onOpenChange={close}>
      <DialogContent className="max-w-2xl">
        <DialogHeader>
          <DialogTitle>Import Assessment</DialogTitle>
          <DialogDescription>
            Upload a customer&apos;s questionnaire. Verity finds its questions, answers them in the background, and can
            hand the file back filled in.
          </DialogDescription>
        </DialogHeader>
        <form onSubmit={submit} noValidate className="grid gap-4">
          <TextField
            label="Assessment Name *"
            placeholder={`e.g. Acme Corp vendor security review ${String(new Date().getFullYear())}`}
            error={errors.name?.message}
            autoComplete="off"
            // The 'missing' message set on submit goes as soon as a name is typed.
            {...register('name', { onChange: () => clearErrors('name') })}
          />
          <div className="grid gap-4 sm:grid-cols-2">
            <TextField
              label="Customer Name"
              placeholder="e.g. Acme Corp"
              error={errors.customerName?.message}
              autoComplete="off"
              {...register('customerName')}
            />
            <TextField
              label="Assessment Type"
              placeholder="e.g. SIG Lite, CAIQ, vendor questionnaire"
              error={errors.assessmentType?.message}
              autoComplete="off"
              {...register('assessmentType')}
            />
          </div>
          <TextareaField
            label="Description"
            placeholder="What this assessment is for (optional)"
            rows={2}
            className="[&_textarea]:min-h-14"
            error={errors.description?.message}
            {...register('description')}
          />

          <TextField
            ref={fileInput}
            label="CSV, Excel or Word file *"
            type="file"
            accept={QUESTIONNAIRE_ACCEPT}
            onChange={pickFile}
            error={fileError ?? undefined}
            hint={
              picked
                ? selectedFileLine(picked.file)
                : 'CSV, Excel (.xlsx, .xls) or Word (.docx) tables. Every sheet is read; up to 20 MB.'
            }
            className="[&_input]:h-auto [&_input]:py-1.5 [&_input]:file:mr-3 [&_input]:file:font-medium"
          />

          {picked &&
            (preview.isPending ? (
              <p className="flex items-center gap-2 rounded-lg border bg-surface p-3 text-sm text-muted-foreground">
                <Spinner className="size-4" label="Reading the file" />
                Reading the questionnaire...
              </p>
            ) : preview.isError ? (
              <Alert variant="destructive">
                <AlertDescription className="flex flex-wrap items-center justify-between gap-3">
                  {errorMessage(preview.error, 'This file could not be read.')}
                  {/* A column choice the server refused: the way back is the columns it found itself. */}
                  {mapping && (
                    <Button variant="outline" size="sm" onClick={() => setMapping(undefined)}>
                      Use detected columns
                    </Button>
                  )}
                </AlertDescription>
              </Alert>
            ) : previewData ? (
              <QuestionnairePreview
                preview={previewData}
                detected={detected?.token === picked.token ? detected.mapping : NO_MAPPING}
                detectedSkips={detected?.token === picked.token ? detected.skips : NO_SKIPS}
                chosen={mapping}
                refreshing={preview.isFetching}
                onMappingChange={setMapping}
                prefilled={prefilled}
                onPrefilledChange={setPrefilled}
                onForgetLayout={forget}
                forgetting={forgetLayout.isPending}
              />
            ) : null)}

          <DialogFooter>
            <Button variant="outline" onClick={() => close(false)}>
              Cancel
            </Button>
            <Button type="submit" disabled={!canStart}>
              {importMutation.isPending && <LoaderCircle className="animate-spin" aria-hidden />}
              Import Assessment
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}
