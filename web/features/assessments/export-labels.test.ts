import { describe, expect, it } from 'vitest';
import { excelExportLabel, exportChoices, originalExportLabel } from './export-labels';

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

describe('export choices', () => {
  const values = (batch: Parameters<typeof exportChoices>[0]) => exportChoices(batch).map((c) => c.value);

  it("put the customer's own file first, then a new workbook and CSV", () => {
    expect(values({ canFillOriginal: true, originalExport: 'xlsx' })).toEqual(['xlsx', 'xlsx-new', 'csv']);
    expect(values({ canFillOriginal: false, originalExport: 'docx' })).toEqual(['original', 'xlsx', 'csv']);
    expect(values({ canFillOriginal: false, originalExport: 'csv' })).toEqual(['original', 'xlsx', 'csv']);
    expect(values({ canFillOriginal: false, originalExport: null })).toEqual(['xlsx', 'csv']);
  });

  it('ask for a new workbook only where the original could be filled', () => {
    const generic = exportChoices({ canFillOriginal: true, originalExport: 'xlsx' }).filter((c) => c.generic);
    expect(generic.map((c) => c.label)).toEqual(['Excel (new workbook)']);
    expect(exportChoices({ canFillOriginal: false, originalExport: null }).some((c) => c.generic)).toBe(false);
  });
});
