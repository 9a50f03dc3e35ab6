import { describe, expect, it } from 'vitest';
import { parseImport } from '../../../common/import/parse';
import { IMPORT_FORMATS } from '../../../common/import/types';
import { ImportFormValues } from './import-form-values';
import { FORMAT_LABELS, IMPORT_TEMPLATES } from './import-templates';

describe('import templates', () => {
  it.each(IMPORT_FORMATS)('the %s template is read by its own parser as it is', (format) => {
    const entries = parseImport(format, IMPORT_TEMPLATES[format].content);
    expect(entries.length).toBeGreaterThan(0);
    for (const entry of entries) {
      expect(entry.question.trim()).not.toBe('');
      expect(entry.answer.trim()).not.toBe('');
    }
  });

  it('pass the import form as they are loaded into it', () => {
    for (const format of IMPORT_FORMATS) {
      expect(ImportFormValues.safeParse({ format, content: IMPORT_TEMPLATES[format].content }).success).toBe(true);
    }
  });

  it('have a label for every format', () => {
    expect(Object.keys(FORMAT_LABELS).sort()).toEqual([...IMPORT_FORMATS].sort());
    expect(FORMAT_LABELS.manual).toBe('Plain Text');
  });
});

describe('ImportFormValues', () => {
  it('requires content that is not only spaces', () => {
    const result = ImportFormValues.safeParse({ format: 'csv', content: '  \n ' });
    expect(result.success).toBe(false);
    expect(result.error?.issues[0]?.message).toBe('Content is required');
  });

  it('refuses a format the parsers do not know', () => {
    expect(ImportFormValues.safeParse({ format: 'xml', content: '<a/>' }).success).toBe(false);
  });
});
