import { describe, expect, it } from 'vitest';
import { IMPORT_FORMATS } from '../../../common/import/types';
import {
  findDuplicates,
  IMPORT_PLACEHOLDERS,
  importButtonLabel,
  importedTitle,
  importOutcomeSummary,
  previewSummary,
  skippedDescription,
} from './import-preview-rules';
import { IMPORT_TEMPLATES } from './import-templates';

const row = (key: number, question: string) => ({ key, entry: { question } });

describe('import preview: duplicates are not counted as ready', () => {
  it('marks questions the library has, and repeats of an earlier entry (ignoring case and punctuation)', () => {
    const rows = [row(0, 'Do you encrypt data?'), row(1, 'Is MFA enforced?'), row(2, 'is mfa ENFORCED'), row(3, 'x?')];
    const duplicates = findDuplicates(rows, new Set([0]));
    expect(duplicates.get(0)).toEqual({ kind: 'library' });
    expect(duplicates.get(2)).toEqual({ kind: 'repeat', of: 2 });
    expect(duplicates.has(1)).toBe(false);
    expect(duplicates.has(3)).toBe(false);
  });

  it('a repeat whose first entry was removed becomes ready', () => {
    expect(findDuplicates([row(2, 'is mfa ENFORCED')], new Set()).size).toBe(0);
  });

  it('the summary and the button count only the ready entries', () => {
    expect(previewSummary(3, 2)).toBe('3 entries ready to import. 2 duplicates will be skipped.');
    expect(previewSummary(1, 1)).toBe('1 entry ready to import. 1 duplicate will be skipped.');
    expect(importButtonLabel(1)).toBe('Import 1 Answer');
    expect(importButtonLabel(4)).toBe('Import 4 Answers');
  });
});

describe('import result: plurals', () => {
  it('says "1 canonical answer", and "answers" from 2 on', () => {
    expect(importedTitle(1)).toBe('Imported 1 canonical answer successfully');
    expect(importedTitle(3)).toBe('Imported 3 canonical answers successfully');
    expect(skippedDescription(0)).toBeUndefined();
    expect(skippedDescription(1)).toBe('1 entry was skipped as a duplicate.');
    expect(skippedDescription(2)).toBe('2 entries were skipped as duplicates.');
  });
});

describe('import placeholder: a hint, not content', () => {
  it.each(IMPORT_FORMATS)('the %s placeholder is marked as an example with <slots>, unlike the template', (format) => {
    const placeholder = IMPORT_PLACEHOLDERS[format];
    expect(placeholder.startsWith('Example:')).toBe(true);
    expect(placeholder).toContain('<question>');
    expect(placeholder).not.toBe(IMPORT_TEMPLATES[format].content);
  });
});

describe('the result of an import', () => {
  it('says how many entries the library gained, and as what', () => {
    expect(importOutcomeSummary({ imported: 3, skipped: 1, status: 'approved' })).toBe(
      '3 entries were added to the Knowledge Library.',
    );
    expect(importOutcomeSummary({ imported: 1, skipped: 0, status: 'draft' })).toBe(
      '1 entry was added to the Knowledge Library as a draft.',
    );
    expect(importOutcomeSummary({ imported: 1200, skipped: 0, status: 'draft' })).toBe(
      '1,200 entries were added to the Knowledge Library as drafts.',
    );
    expect(importOutcomeSummary({ imported: 0, skipped: 2, status: 'approved' })).toBe(
      'No entries were added to the Knowledge Library.',
    );
  });
});
