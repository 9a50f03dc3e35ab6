import { useMutation, useQueryClient } from '@tanstack/react-query';
import { AccuracyCalibration, type CalibrationBody } from '../../../../common/schemas/accuracy';
import { api } from '../../../lib/api';
import { invalidateAssessments } from '../../../app/invalidate';

/** Switches the workspace's own calibration of the confidence on or off. */
export function saveCalibration(body: CalibrationBody): Promise<AccuracyCalibration> {
  return api.put('/api/admin/accuracy/calibration', AccuracyCalibration, body, {
    errorFallback: 'Could not change the calibration.',
  });
}

/** The accuracy figures and every assessment view show the confidence anew once it is switched. */
export function useSaveCalibration() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: saveCalibration,
    onSuccess: () => invalidateAssessments(queryClient),
  });
}
