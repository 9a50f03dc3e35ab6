import { describe, expect, it } from 'vitest';
import { QUESTIONNAIRE_EXTENSIONS } from '../../lib/questionnaire-files';
import { FILE_MISSING, INVALID_FILE, missingFieldErrors, NAME_MISSING } from './import-assessment-rules';

describe('import dialog: each field says only what it still needs', () => {
  it('a missing name and file each get their own sentence', () => {
    expect(missingFieldErrors({ name: ' ', hasFile: false })).toEqual({ name: NAME_MISSING, file: FILE_MISSING });
  });

  it('once a file is chosen, nothing on screen still asks for one', () => {
    const errors = missingFieldErrors({ name: '', hasFile: true });
    expect(errors.file).toBeUndefined();
    expect(Object.values(errors).join(' ')).not.toMatch(/file/i);
  });

  it('a named assessment with a file has no message', () => {
    expect(missingFieldErrors({ name: 'Acme review', hasFile: true })).toEqual({});
  });
});

describe('import dialog: the wrong-type message names every accepted format', () => {
  it('says CSV, Excel and Word, which the picker accepts', () => {
    expect(QUESTIONNAIRE_EXTENSIONS).toContain('.docx');
    expect(INVALID_FILE).toBe('Please select a CSV, Excel or Word file.');
  });
});
