import { describe, expect, it } from 'vitest';
import { checkComposerText } from './composer-check';

const question = (i: number) => `Do you review access control number ${i} for every production system each quarter?`;

describe('checkComposerText', () => {
  it('says nothing about an ordinary message', () => {
    expect(checkComposerText('Do you use SSO?')).toMatchObject({
      questions: ['Do you use SSO?'],
      warning: null,
      tooMany: false,
      suggestBulkImport: false,
    });
  });

  it('sends every pasted question whole, however long the paste, and says how many first', () => {
    const pasted = Array.from({ length: 30 }, (_, i) => question(i + 1)).join('\n');
    expect(pasted.length).toBeGreaterThan(2000);
    const check = checkComposerText(pasted);
    // The 22 questions that became 16 (the last a fragment): now all of them, each whole.
    expect(check.questions).toHaveLength(30);
    expect(check.questions.at(-1)).toBe(question(30));
    expect(check.warning).toBe(
      `30 questions, ${pasted.length.toLocaleString('en-US')} characters: each is sent as its own question.`,
    );
    expect(check.suggestBulkImport).toBe(true);
  });

  it('reads a question longer than 2,000 characters from its start, and says so', () => {
    const long = `Describe your controls. ${'We keep evidence of every review. '.repeat(80)}`.trim();
    const check = checkComposerText(long);
    expect(check.questions).toEqual([long.slice(0, 2000).trimEnd()]);
    expect(check.warning).toBe(
      `This question has ${long.length.toLocaleString('en-US')} characters: only its first 2,000 are read.`,
    );
    const mixed = checkComposerText(`${question(1)}\n${long}\n${question(3)}`);
    expect(mixed.longQuestions).toEqual([2]);
    expect(mixed.warning).toContain('Question 2 is longer than 2,000 characters: only the first 2,000 are read.');
  });

  it('sends nothing past 100 questions', () => {
    const check = checkComposerText(Array.from({ length: 101 }, (_, i) => question(i)).join('\n'));
    expect(check.tooMany).toBe(true);
    expect(check.warning).toBe('101 questions: at most 100 can be sent at once.');
  });
});
