import { describe, expect, it } from 'vitest';
import { excelExportLabel, originalExportLabel } from './export-labels';

describe('export labels', () => {
  it('offer the filled original workbook when there is one', () => {
    expect(excelExportLabel({ canFillOriginal: true })).toBe('Export Excel (filled original)');
    expect(excelExportLabel({ canFillOriginal: false })).toBe('Export Excel');
  });

  it("offer the customer's own CSV or Word file, and nothing for other sources", () => {
    expect(originalExportLabel({ originalExport: 'csv' })).toBe('Export CSV (filled original)');
    expect(originalExportLabel({ originalExport: 'docx' })).toBe('Export Word (filled original)');
    expect(originalExportLabel({ originalExport: 'xlsx' })).toBeNull();
    expect(originalExportLabel({ originalExport: null })).toBeNull();
  });
});
