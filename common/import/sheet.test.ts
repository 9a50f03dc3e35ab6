import { describe, expect, it } from 'vitest';
import { expectParseError } from './expect-parse-error';
import { entriesFromRows, entriesFromSheets, findHeader } from './sheet';

const opts = { source: 'Upload', confidence: 85 };

/** Header plus data rows, parsed from row 1. */
function entries(rows: string[][]) {
  const header = findHeader(rows);
  if (!header) throw new Error('test rows have no header');
  return entriesFromRows(rows, header, opts);
}

describe('findHeader: aliases, case and spacing', () => {
  it.each([
    [['Question', 'Answer'], { question: 0, answer: 1 }],
    [['  QUESTION  TEXT ', 'Response'], { question: 0, answer: 1 }],
    [
      ['Control Question', 'Reply', 'Category', 'Notes', 'Source', 'Confidence'],
      { question: 0, answer: 1, tags: 2, comments: 3, source: 4, confidence: 5 },
    ],
    [['tags', 'query', 'answers', 'Additional   Information'], { question: 1, answer: 2, tags: 0, comments: 3 }],
  ])('reads %j', (cells, columns) => {
    expect(findHeader([cells])).toEqual({ rowIndex: 0, columns });
  });

  it('takes a header that contains the word question or answer/response when no alias matches', () => {
    expect(findHeader([['Question ID', 'Security Question', 'CSP CAIQ Answer']])?.columns).toEqual({
      question: 1,
      answer: 2,
    });
    expect(findHeader([['Vendor Response', 'Questions asked']])?.columns).toEqual({ question: 1, answer: 0 });
  });

  it('never takes an id-like column for the question or the answer', () => {
    expect(findHeader([['Question ID', 'Answer']])).toBeNull();
    expect(findHeader([['Question #', 'Answer']])).toBeNull();
    expect(findHeader([['Question No.', 'Answer']])).toBeNull();
    expect(findHeader([['Question Number', 'Answer ID', 'Answer']])).toBeNull();
    expect(findHeader([['Question No.', 'Question text', 'Answer']])?.columns).toEqual({ question: 1, answer: 2 });
  });

  it('still takes "Answer (Yes/No)" as the answer', () => {
    expect(findHeader([['Question', 'Answer (Yes/No)']])?.columns).toEqual({ question: 0, answer: 1 });
  });

  it('prefers an exact alias over a header that merely contains the word', () => {
    expect(findHeader([['Answer comments', 'Question', 'Answer']])?.columns).toEqual({ question: 1, answer: 2 });
  });

  it('leaves out a header that names both question and answer', () => {
    expect(findHeader([['Question', 'Response to question']])).toBeNull();
  });

  it('only looks as far down as maxHeaderRow', () => {
    const rows = [['Security questionnaire 2025'], [], ['Question', 'Answer']];
    expect(findHeader(rows)).toBeNull();
    expect(findHeader(rows, 1)).toBeNull();
    expect(findHeader(rows, 9)).toEqual({ rowIndex: 2, columns: { question: 0, answer: 1 } });
  });

  it('needs both a question and an answer column', () => {
    expect(findHeader([['Question', 'Tags']])).toBeNull();
    expect(findHeader([])).toBeNull();
  });
});

describe('entriesFromRows: one entry per data row', () => {
  it('trims cells and uses the default source and confidence', () => {
    expect(
      entries([
        ['question', 'answer'],
        ['  Do you use SSO? ', ' Yes. '],
      ]),
    ).toEqual([{ question: 'Do you use SSO?', answer: 'Yes.', tags: [], source: 'Upload', confidence: 85 }]);
  });

  it('drops rows lacking a question or an answer', () => {
    const rows = [['question', 'answer'], ['Q1', ''], ['', 'A2'], ['   ', '   '], [], ['Q5', 'A5']];
    expect(entries(rows).map((e) => e.question)).toEqual(['Q5']);
  });

  it('splits tags by semicolon, dropping empties and repeats', () => {
    const [entry] = entries([
      ['question', 'answer', 'tags'],
      ['Q', 'A', ' sso; mfa ;;sso; '],
    ]);
    expect(entry?.tags).toEqual(['sso', 'mfa']);
  });

  it('uses the source cell when filled', () => {
    const rows = [
      ['question', 'answer', 'source'],
      ['Q1', 'A', 'SOC 2'],
      ['Q2', 'A', ' '],
    ];
    expect(entries(rows).map((e) => e.source)).toEqual(['SOC 2', 'Upload']);
  });

  it('reads a whole-number confidence 0–100, with or without %, else the default', () => {
    const cells = ['85', '70%', '0', '100', '100.0', '101', '-5', '7.5', 'high', ''];
    const rows = [['question', 'answer', 'confidence'], ...cells.map((c, i) => [`Q${i}`, 'A', c])];
    expect(entries(rows).map((e) => e.confidence)).toEqual([85, 70, 0, 100, 100, 85, 85, 85, 85, 85]);
  });

  it('merges the comments column into the answer', () => {
    const rows = [
      ['question', 'answer', 'comments'],
      ['Q1', 'Yes', 'AES-256 at rest.'],
      ['Q2', 'Yes.', 'See policy.'],
      ['Q3', 'No', ''],
      ['Q4', '', 'Only the comment.'],
    ];
    expect(entries(rows).map((e) => e.answer)).toEqual([
      'Yes. AES-256 at rest.',
      'Yes. See policy.',
      'No',
      'Only the comment.',
    ]);
  });

  it('removes the export guard quote from formula-like cells only', () => {
    const rows = [
      ['question', 'answer'],
      ["'=Is this a formula?", "'-1"],
      ["'Quoted", "''twice"],
    ];
    expect(entries(rows).map((e) => [e.question, e.answer])).toEqual([
      ['=Is this a formula?', '-1'],
      ["'Quoted", "'twice"],
    ]);
  });

  it('keeps markup as plain text', () => {
    expect(
      entries([
        ['question', 'answer'],
        ['Q', '<script>alert(1)</script>'],
      ])[0]?.answer,
    ).toBe('<script>alert(1)</script>');
  });

  it('numbers rows from the header and rowNumberOffset', () => {
    const rows = [
      ['question', 'answer'],
      ['Q', 'x'.repeat(20_001)],
    ];
    const header = findHeader(rows);
    if (!header) throw new Error('no header');
    expectParseError(
      () => entriesFromRows(rows, header, { ...opts, rowNumberOffset: 4 }),
      'Row 6: Answer is longer than 20,000 characters',
    );
  });
});

describe('entriesFromRows: limits', () => {
  it('refuses more than 10,000 entries', () => {
    const rows = [['question', 'answer'], ...Array.from({ length: 10_001 }, (_, i) => [`Q${i}`, 'A'])];
    expectParseError(
      () => entries(rows),
      'An import can hold at most 10,000 entries (this one has 10,001). Split the file and import it in parts.',
    );
  });

  it('accepts exactly 10,000 entries', () => {
    const rows = [['question', 'answer'], ...Array.from({ length: 10_000 }, (_, i) => [`Q${i}`, 'A'])];
    expect(entries(rows)).toHaveLength(10_000);
  });

  it('refuses a question longer than 2,000 characters', () => {
    expectParseError(
      () =>
        entries([
          ['question', 'answer'],
          ['Q', 'A'],
          ['q'.repeat(2001), 'A'],
        ]),
      'Row 3: Question is longer than 2,000 characters',
    );
  });

  it('refuses an answer longer than 20,000 characters, comments included', () => {
    const rows = [
      ['question', 'answer', 'comments'],
      ['Q', 'a'.repeat(10_000), 'c'.repeat(10_000)],
    ];
    expectParseError(() => entries(rows), 'Row 2: Answer is longer than 20,000 characters');
  });

  it('refuses a tag longer than 60 characters, quoting its start', () => {
    const rows = [
      ['question', 'answer', 'tags'],
      ['Q', 'A', `ok; ${'abcdefghij'.repeat(7)}`],
    ];
    expectParseError(() => entries(rows), 'Row 2: Tag "abcdefghijabcdefghij…" is longer than 60 characters');
  });

  it('refuses more than 30 tags', () => {
    const tags = Array.from({ length: 31 }, (_, i) => `t${i}`).join(';');
    expectParseError(
      () =>
        entries([
          ['question', 'answer', 'tags'],
          ['Q', 'A', tags],
        ]),
      'Row 2: At most 30 tags per entry',
    );
  });

  it('refuses a source longer than the library keeps', () => {
    expectParseError(
      () =>
        entries([
          ['question', 'answer', 'source'],
          ['Q', 'A', 's'.repeat(301)],
        ]),
      'Row 2: Source is longer than 300 characters',
    );
  });
});

describe('entriesFromSheets: workbooks', () => {
  it('reads the first sheet with a header, below a title row, with sheet row numbers', () => {
    const sheets = [
      { name: 'Cover', rows: [['Vendor security questionnaire'], ['Company', 'Acme']] },
      {
        name: 'Questions',
        rows: [['CAIQ v4'], [], ['Question ID', 'Question', 'CSP CAIQ Answer'], ['A&A-01.1', 'Q1', 'Yes']],
      },
      {
        name: 'Other',
        rows: [
          ['question', 'answer'],
          ['ignored', 'ignored'],
        ],
      },
    ];
    expect(entriesFromSheets(sheets, { source: 'caiq.xlsx' })).toEqual([
      { question: 'Q1', answer: 'Yes', tags: [], source: 'caiq.xlsx', confidence: 85 },
    ]);
    const long = [{ name: 'S', rows: [['Title'], ['question', 'answer'], ['Q', 'a'.repeat(20_001)]] }];
    expectParseError(() => entriesFromSheets(long, { source: 'x' }), 'Row 3: Answer is longer than 20,000 characters');
  });

  it('does not look below the first 10 rows for the header', () => {
    const rows = [...Array.from({ length: 10 }, () => ['note']), ['question', 'answer'], ['Q', 'A']];
    expectParseError(
      () => entriesFromSheets([{ name: 'S', rows }], { source: 'x' }),
      "No sheet has a header row with 'question' and 'answer' columns",
    );
  });

  it('reads sparse rows (cells missing at the end or in between)', () => {
    const row: string[] = [];
    row[2] = 'Yes';
    row[0] = 'Q';
    expect(entriesFromSheets([{ name: 'S', rows: [['question', '', 'answer'], row] }], { source: 'x' })).toHaveLength(
      1,
    );
  });

  it('says so when the chosen sheet has no complete row', () => {
    expectParseError(
      () =>
        entriesFromSheets(
          [
            {
              name: 'S',
              rows: [
                ['question', 'answer'],
                ['Q', ''],
              ],
            },
          ],
          opts,
        ),
      'No valid Q&A entries found',
    );
  });

  it('says so when no sheet has a header', () => {
    const message = "No sheet has a header row with 'question' and 'answer' columns";
    expectParseError(() => entriesFromSheets([], opts), message);
    expectParseError(() => entriesFromSheets([{ name: 'S', rows: [['a', 'b']] }], opts), message);
  });
});
