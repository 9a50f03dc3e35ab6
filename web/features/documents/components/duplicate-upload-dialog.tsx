import { Copy, Replace } from 'lucide-react';
import {
  AlertDialog,
  AlertDialogCancel,
  AlertDialogContent,
  AlertDialogDescription,
  AlertDialogFooter,
  AlertDialogHeader,
  AlertDialogTitle,
} from '../../../components/ui/alert-dialog';
import { Button } from '../../../components/ui/button';
import { useDuplicateQuestion } from '../upload/duplicate-choice-store';

/**
 * Asks what to do with an uploaded file whose bytes are already a document of this workspace, instead of silently
 * storing a second copy. Closing it (Escape, Cancel) adds nothing.
 */
export function DuplicateUploadDialog() {
  const question = useDuplicateQuestion();
  return (
    <AlertDialog open={question !== null} onOpenChange={(open) => !open && question?.answer('skip')}>
      <AlertDialogContent>
        <AlertDialogHeader>
          <AlertDialogTitle>This file is already in the library</AlertDialogTitle>
          <AlertDialogDescription className="break-words">
            {question &&
              (question.fileName === question.existingName
                ? `“${question.fileName}” has already been uploaded, with the same content.`
                : `“${question.fileName}” has the same content as “${question.existingName}”.`)}{' '}
            Replace keeps one copy under the new name.
          </AlertDialogDescription>
        </AlertDialogHeader>
        <AlertDialogFooter>
          <AlertDialogCancel>Cancel</AlertDialogCancel>
          <Button variant="outline" onClick={() => question?.answer('keep')}>
            <Copy aria-hidden />
            Keep both
          </Button>
          <Button onClick={() => question?.answer('replace')}>
            <Replace aria-hidden />
            Replace
          </Button>
        </AlertDialogFooter>
      </AlertDialogContent>
    </AlertDialog>
  );
}
