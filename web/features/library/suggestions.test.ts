import { describe, expect, it } from 'vitest';
import { approvalEdits, suggestionFormValues, suggestionSource } from './suggestions';

const suggestion = {
  question: 'Do you encrypt laptops?',
  answer: 'Yes. Every laptop has full-disk encryption.',
  tags: ['endpoint', 'encryption'],
};

describe('approvalEdits ("Edit then approve")', () => {
  it('sends nothing for an untouched form, so the suggestion is approved as suggested', () => {
    expect(approvalEdits(suggestion, suggestionFormValues(suggestion))).toEqual({});
    expect(
      approvalEdits(suggestion, { ...suggestionFormValues(suggestion), question: ' Do you encrypt laptops? ' }),
    ).toEqual({});
  });

  it('sends only the fields the approver changed, tags as a list', () => {
    expect(
      approvalEdits(suggestion, {
        question: suggestion.question,
        answer: 'Yes. Every laptop has full-disk encryption enforced by MDM. ',
        tags: 'endpoint, encryption, mdm, mdm',
      }),
    ).toEqual({
      answer: 'Yes. Every laptop has full-disk encryption enforced by MDM.',
      tags: ['endpoint', 'encryption', 'mdm'],
    });
    expect(approvalEdits(suggestion, { ...suggestionFormValues(suggestion), tags: '' })).toEqual({ tags: [] });
  });
});

describe('suggestionSource', () => {
  it('names the assessment, a deleted one, or the library', () => {
    expect(suggestionSource({ sourceBatchId: 'b1', sourceBatchName: 'Acme review' })).toBe(
      'From the assessment "Acme review"',
    );
    expect(suggestionSource({ sourceBatchId: 'b1', sourceBatchName: null })).toBe(
      'From an assessment that was deleted since',
    );
    expect(suggestionSource({ sourceBatchId: null, sourceBatchName: null })).toBe('Suggested in the library');
  });
});
