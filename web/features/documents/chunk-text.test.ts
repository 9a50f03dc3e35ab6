import { describe, expect, it } from 'vitest';
import { readableChunkText } from './chunk-text';

describe('readableChunkText', () => {
  it('drops the heading line a section starts with, since the viewer shows the heading above it', () => {
    // As the chunker stores "# Passwords\n\nAll passwords…" from a Markdown file.
    expect(readableChunkText('Passwords\nAll passwords must be long.', 'Passwords')).toBe(
      'All passwords must be long.',
    );
    expect(readableChunkText('Access  control\nAccess is reviewed.', 'Access control')).toBe('Access is reviewed.');
    expect(readableChunkText('Passwords', 'Passwords')).toBe('');
  });

  it('keeps a first line that is not the heading', () => {
    expect(readableChunkText('Passwords are rotated.\nMore text.', 'Passwords')).toBe(
      'Passwords are rotated.\nMore text.',
    );
    expect(readableChunkText('Passwords\nAll passwords must be long.', null)).toBe(
      'Passwords\nAll passwords must be long.',
    );
  });

  it('puts the items of a list the chunker ran together on lines of their own', () => {
    expect(
      readableChunkText(
        'Passwords\nRequirements for all staff:\n- At least 14 characters. - Rotated every 90 days. - No reuse.',
        'Passwords',
      ),
    ).toBe('Requirements for all staff:\n- At least 14 characters.\n- Rotated every 90 days.\n- No reuse.');
    expect(readableChunkText('Steps: 1. Report 2. Contain 3. Review', null)).toBe(
      'Steps:\n1. Report\n2. Contain\n3. Review',
    );
  });
});
