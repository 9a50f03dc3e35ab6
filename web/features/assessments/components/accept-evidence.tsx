import { ShieldCheck, ShieldQuestion } from 'lucide-react';
import { OFFER_PERIOD, accuracyParams, acceptOfferSentence } from '../../../app/accuracy/accuracy-period';
import { useAccuracy } from '../../../app/accuracy/get-accuracy';
import { useCan } from '../../../app/me/use-can';
import { Button } from '../../../components/ui/button';

interface AcceptEvidenceProps {
  /** Asks for the figures only while the popover is open. */
  open: boolean;
  /** The confidence now in the field, so the button is not offered for the value already there. */
  current: number | null;
  onUse: (confidence: number) => void;
}

/**
 * The bulk-accept popover's evidence: the lowest confidence this workspace's reviewers kept unchanged often enough
 * over the last 90 days, with a button to use it, or a line saying the evidence is not there yet. Only for those who
 * may read the accuracy figures.
 */
export function AcceptEvidence({ open, current, onUse }: AcceptEvidenceProps) {
  const canRead = useCan('accuracy:read');
  const { params } = accuracyParams(OFFER_PERIOD);
  const accuracy = useAccuracy(params, { enabled: open && canRead });
  if (!canRead) return null;
  if (accuracy.isPending) {
    return (
      <p className="text-xs text-muted-foreground" role="status">
        Looking up how past answers were reviewed...
      </p>
    );
  }
  // The offer is a help, not the task: without the figures the popover works as before.
  if (accuracy.isError || !accuracy.data) return null;
  const { threshold, calibration } = accuracy.data;
  return (
    <div className="grid gap-2 rounded-md border bg-surface p-2.5 text-xs" aria-live="polite">
      <p className="flex gap-2">
        {threshold ? (
          <ShieldCheck className="mt-0.5 size-3.5 shrink-0 text-emerald-700" aria-hidden />
        ) : (
          <ShieldQuestion className="mt-0.5 size-3.5 shrink-0 text-muted-foreground" aria-hidden />
        )}
        <span>
          {acceptOfferSentence(threshold)}
          {threshold && calibration.active && ' Confidence as calibrated on your reviews, the figure the answers show.'}
        </span>
      </p>
      {threshold && threshold.confidence !== current && (
        <Button variant="outline" size="sm" className="justify-self-start" onClick={() => onUse(threshold.confidence)}>
          Use {String(threshold.confidence)}%
        </Button>
      )}
    </div>
  );
}
