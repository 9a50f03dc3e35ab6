import { useId } from 'react';
import type { AccuracyCalibration } from '../../../../common/schemas/accuracy';
import { useCan } from '../../../app/me/use-can';
import { Label } from '../../../components/ui/label';
import { Switch } from '../../../components/ui/switch';
import { toastError } from '../../../components/ui/use-toast';
import { calibrationSentence } from '../accuracy-chart-data';
import { useSaveCalibration } from '../api/save-calibration';

/**
 * "Calibrate on this workspace's reviews": shows reviewers the engine's confidence recalibrated on the workspace's own
 * review outcomes. Disabled, with the reason, until there are enough of them; it takes effect at once (no form).
 */
export function CalibrationSwitch({ calibration }: { calibration: AccuracyCalibration }) {
  const id = useId();
  const canSwitch = useCan('accuracy:calibrate');
  const save = useSaveCalibration();
  const checked = save.isPending && save.variables ? save.variables.enabled : calibration.enabled;
  return (
    <div className="flex items-start gap-3">
      <Switch
        id={id}
        checked={checked}
        disabled={!canSwitch || save.isPending || (!calibration.available && !calibration.enabled)}
        onCheckedChange={(enabled) =>
          save.mutate({ enabled }, { onError: (e) => toastError(e, 'Could not change the calibration.') })
        }
        aria-describedby={`${id}-hint`}
        className="mt-0.5"
      />
      <div className="grid gap-1">
        <Label htmlFor={id}>Calibrate on this workspace&apos;s reviews</Label>
        <p id={`${id}-hint`} className="text-xs text-muted-foreground">
          {calibrationSentence(calibration)}
        </p>
      </div>
    </div>
  );
}
