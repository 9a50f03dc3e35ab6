import type { AssessmentQuestionView } from '../../../common/schemas/assessments';
import { formatPercent } from '../../lib/format';

/**
 * What the card says beside a recalibrated confidence (issue 36): that the figure comes from this workspace's own
 * reviews and what the engine itself said; null when the figure shown is the engine's.
 */
export function calibrationNote(
  question: Partial<Pick<AssessmentQuestionView, 'confidenceCalibrated' | 'engineConfidence'>>,
): string | null {
  if (!question.confidenceCalibrated || question.engineConfidence == null) return null;
  return `calibrated on your reviews; Verity said ${formatPercent(question.engineConfidence)}`;
}
