import { describe, expect, it } from 'vitest';
import { citeKey, mergedCiteChoices, passageCite, passagePlace, withInsertedText } from './evidence-rules';

const passage = {
  documentId: 'd1',
  name: 'Backup Policy.pdf',
  pageNumber: 3,
  section: 'Schedule',
  text: 'Backups are taken every six hours.',
};

describe('inserting a found text into the answer', () => {
  it('fills an empty answer with the text alone', () => {
    expect(withInsertedText('  \n', ' Backups are taken every six hours. ')).toBe('Backups are taken every six hours.');
  });

  it('adds the text as its own paragraph after what the person wrote', () => {
    expect(withInsertedText('Yes.  ', 'Backups are taken every six hours.')).toBe(
      'Yes.\n\nBackups are taken every six hours.',
    );
  });

  it('does not add a text the answer already holds, nor an empty one', () => {
    expect(withInsertedText('Yes. Backups are taken every six hours.', 'Backups are taken every six hours.')).toBe(
      'Yes. Backups are taken every six hours.',
    );
    expect(withInsertedText('Yes.', '   ')).toBe('Yes.');
  });
});

describe('citing what a search found', () => {
  it('names a passage by its document and page, and cites the document', () => {
    expect(passagePlace(passage)).toBe('Backup Policy.pdf, page 3');
    expect(passagePlace({ ...passage, pageNumber: null })).toBe('Backup Policy.pdf');
    expect(passageCite(passage)).toEqual({
      cite: { type: 'document', id: 'd1' },
      label: 'Document: Backup Policy.pdf',
    });
  });

  it("keeps the question's own sources first and lists each entry or document once", () => {
    const entry = { cite: { type: 'library' as const, id: 'e1' }, label: 'Library: MFA?' };
    const own = [entry];
    const picked = [passageCite(passage), passageCite({ ...passage, pageNumber: 9 }), entry];
    expect(mergedCiteChoices(own, picked).map((c) => citeKey(c.cite))).toEqual(['library:e1', 'document:d1']);
  });
});
