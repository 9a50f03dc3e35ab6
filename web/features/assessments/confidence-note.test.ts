import { describe, expect, it } from 'vitest';
import { calibrationNote } from './confidence-note';

describe('calibrationNote', () => {
  it('says the figure is calibrated and what the engine said', () => {
    expect(calibrationNote({ confidenceCalibrated: true, engineConfidence: 90 })).toBe(
      'calibrated on your reviews; Verity said 90%',
    );
  });

  it("says nothing when the figure shown is the engine's own", () => {
    expect(calibrationNote({ confidenceCalibrated: false, engineConfidence: 90 })).toBeNull();
    expect(calibrationNote({})).toBeNull();
    expect(calibrationNote({ confidenceCalibrated: true, engineConfidence: null })).toBeNull();
  });
});
