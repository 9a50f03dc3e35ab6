import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { listItemsOnLines } from './list-lines';

describe('listItemsOnLines', () => {
  it('puts the items of a Markdown list the chunker ran together on lines of their own', () => {
    expect(listItemsOnLines('- Passwords are long - MFA is required - Sessions expire')).toBe(
      '- Passwords are long\n- MFA is required\n- Sessions expire',
    );
  });

  it('starts a list after a colon or the end of a sentence', () => {
    expect(listItemsOnLines('Requirements for staff: - Long passwords. - MFA everywhere.')).toBe(
      'Requirements for staff:\n- Long passwords.\n- MFA everywhere.',
    );
    expect(listItemsOnLines('Yes. * Long passwords * MFA everywhere')).toBe('Yes.\n* Long passwords\n* MFA everywhere');
    expect(listItemsOnLines('Title\nRules: • One • Two')).toBe('Title\nRules:\n• One\n• Two');
  });

  it('splits a numbered list at the next numbers only', () => {
    expect(listItemsOnLines('Steps: 1. Report it 2. Contain it for 3 days 3. Review it')).toBe(
      'Steps:\n1. Report it\n2. Contain it for 3 days\n3. Review it',
    );
    expect(listItemsOnLines('1) Report 2) Review')).toBe('1) Report\n2) Review');
  });

  it('leaves dashes inside sentences and text without lists alone', () => {
    for (const text of [
      'Backups run nightly - and are tested - every quarter.',
      'Costs are 5 - 10 dollars per user.',
      'Temperature: -5 degrees.',
      'Version 1. 2. 3 are supported',
      '',
    ]) {
      expect(listItemsOnLines(text)).toBe(text);
    }
  });

  it('only ever turns spaces into line breaks', () => {
    fc.assert(
      fc.property(fc.string({ unit: fc.constantFrom('-', '*', '1', '2', '.', ':', ' ', 'a', 'B', '\n') }), (text) => {
        const out = listItemsOnLines(text);
        expect(out.length).toBe(text.length);
        expect(out.replace(/\n/g, ' ')).toBe(text.replace(/\n/g, ' '));
      }),
    );
  });
});
