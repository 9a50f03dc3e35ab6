import { describe, expect, it } from 'vitest';
import { SESSION_TITLE_MAX, sessionTitleFrom, splitQuestions } from './split-questions';

describe('splitQuestions', () => {
  it('gives no question for blank text', () => {
    expect(splitQuestions('')).toEqual([]);
    expect(splitQuestions('  \n \t ')).toEqual([]);
  });

  it('gives one question per non-empty line when there are several lines', () => {
    expect(splitQuestions('Do you use SSO?\n\n  Do you encrypt backups?  \r\nWho is your DPO')).toEqual([
      'Do you use SSO?',
      'Do you encrypt backups?',
      'Who is your DPO',
    ]);
  });

  it("splits one line into sentences ending in '?' or '!'", () => {
    expect(splitQuestions('Do you use SSO? Do you encrypt backups!  Tell us more?')).toEqual([
      'Do you use SSO?',
      'Do you encrypt backups!',
      'Tell us more?',
    ]);
  });

  it('keeps one sentence, or sentences ending in a full stop, as one question', () => {
    expect(splitQuestions('  Describe your incident response process.  ')).toEqual([
      'Describe your incident response process.',
    ]);
    expect(splitQuestions('We use AWS. Which regions do you host in?')).toEqual([
      'We use AWS. Which regions do you host in?',
    ]);
  });

  it('reads one line among blank lines as a single text', () => {
    expect(splitQuestions('\n\nIs data encrypted? Is it backed up?\n')).toEqual([
      'Is data encrypted?',
      'Is it backed up?',
    ]);
  });
});

describe('sessionTitleFrom', () => {
  it('keeps a short question whole, with its spaces collapsed', () => {
    expect(sessionTitleFrom('  Do you   use\nSSO?  ')).toBe('Do you use SSO?');
  });

  it('keeps a question of exactly the maximum length whole', () => {
    const question = 'q'.repeat(SESSION_TITLE_MAX);
    expect(sessionTitleFrom(question)).toBe(question);
  });

  it('cuts a longer question at 50 characters and adds ...', () => {
    const question = `${'a'.repeat(49)} tail that goes past the limit`;
    expect(sessionTitleFrom(question)).toBe(`${'a'.repeat(49)}...`);
    expect(sessionTitleFrom('b'.repeat(80))).toBe(`${'b'.repeat(50)}...`);
  });
});
