import {
  AlertDialog,
  AlertDialogAction,
  AlertDialogCancel,
  AlertDialogContent,
  AlertDialogDescription,
  AlertDialogFooter,
  AlertDialogHeader,
  AlertDialogTitle,
} from '../../../components/ui/alert-dialog';
import { buttonVariants } from '../../../components/ui/button';

interface StartAssessmentDialogProps {
  /** The customer of the held import; null when no import is waiting. */
  customerName: string | null;
  onCancel: () => void;
  onContinue: () => void;
}

/**
 * PRODUCT 'Start New Assessment?': asked before a bulk import replaces a chat. It cannot be dismissed by clicking
 * outside (an alert dialog) nor, the same way, by Escape: only Cancel or Continue answer it.
 */
export function StartAssessmentDialog({ customerName, onCancel, onContinue }: StartAssessmentDialogProps) {
  return (
    // Only the two buttons close it (Escape and outside clicks do nothing), each with its own handler: closing must
    // not also count as Cancel, which brings the Bulk Import dialog back.
    <AlertDialog open={customerName !== null}>
      <AlertDialogContent onEscapeKeyDown={(event) => event.preventDefault()}>
        <AlertDialogHeader>
          <AlertDialogTitle>Start New Assessment?</AlertDialogTitle>
          <AlertDialogDescription asChild>
            <div className="grid gap-2">
              <p>You have an active chat session. Starting a bulk assessment for {customerName} will:</p>
              <ul className="list-disc pl-5">
                <li>Save your current chat to history</li>
                <li>Start a new chat for this assessment</li>
              </ul>
              <p>Do you want to continue?</p>
            </div>
          </AlertDialogDescription>
        </AlertDialogHeader>
        <AlertDialogFooter>
          <AlertDialogCancel onClick={onCancel}>Cancel</AlertDialogCancel>
          <AlertDialogAction className={buttonVariants()} onClick={onContinue}>
            Continue
          </AlertDialogAction>
        </AlertDialogFooter>
      </AlertDialogContent>
    </AlertDialog>
  );
}
