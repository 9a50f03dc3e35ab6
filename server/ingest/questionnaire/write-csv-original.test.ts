import { describe, expect, it } from 'vitest';
import { readQuestionnaire } from './intake';
import { writeAnswersToCsv } from './write-csv-original';
import type { WriteTarget } from './write-types';

const target = (answerColumn: number | null, headerRow = 1): WriteTarget => ({
  sheet: 'CSV',
  headerRow,
  questionColumn: 2,
  answerColumn,
  commentsColumn: null,
  allowedValues: null,
});

describe("the customer's CSV, filled", () => {
  it('keeps its columns, order, delimiter and line ends, and appends a Response column when it has none', () => {
    const original =
      'Question ID;Question Text;Type\r\nA-1;Do you encrypt data?;Yes,No\r\nA-2;Do you log access?;Yes,No\r\n';
    const out = writeAnswersToCsv(new TextEncoder().encode(original), target(null), [
      { sheet: 'CSV', row: 2, answer: 'Yes; AES-256 at rest.' },
      { sheet: 'CSV', row: 3, answer: '=HYPERLINK("http://x")' },
    ]);
    expect(out).toBe(
      'Question ID;Question Text;Type;Response\r\n' +
        'A-1;Do you encrypt data?;Yes,No;"Yes; AES-256 at rest."\r\n' +
        `A-2;Do you log access?;Yes,No;"'=HYPERLINK(""http://x"")"\r\n`,
    );
  });

  it('writes into its own answer column and never over an answer the customer gave', async () => {
    const original = '\ufeffQuestion,Answer,Notes\nDo you encrypt data at rest?,,\nDo you run pen tests?,No,yearly\n';
    const bytes = new TextEncoder().encode(original);
    const intake = await readQuestionnaire(bytes, 'q.csv');
    expect(intake.mappings[0]).toMatchObject({ questionColumn: 0, answerColumn: 1 });
    const out = writeAnswersToCsv(bytes, { ...target(2), questionColumn: 1 }, [
      { sheet: 'CSV', row: 2, answer: 'Yes, with AES-256.' },
      { sheet: 'CSV', row: 3, answer: 'Yes, quarterly.' },
    ]);
    expect(out).toBe(
      '\ufeffQuestion,Answer,Notes\nDo you encrypt data at rest?,"Yes, with AES-256.",\nDo you run pen tests?,No,yearly\n',
    );
  });

  it('keeps a tab-separated file tab-separated, its blank lines blank, and its "sep=" line', () => {
    const tabbed = writeAnswersToCsv(
      new TextEncoder().encode('Question\tAnswer\n\nDo you encrypt?\t\n'),
      target(2, 1),
      [{ sheet: 'CSV', row: 3, answer: 'Yes, with AES-256.' }],
    );
    expect(tabbed).toBe('Question\tAnswer\n\nDo you encrypt?\tYes, with AES-256.\n');
    const hinted = writeAnswersToCsv(
      new TextEncoder().encode('sep=;\nQuestion;Answer\nDo you encrypt?;\n'),
      target(2, 2),
      [{ sheet: 'CSV', row: 3, answer: 'Yes' }],
    );
    expect(hinted).toBe('sep=;\nQuestion;Answer\nDo you encrypt?;Yes\n');
  });

  it('writes a Windows-1252 file back as UTF-8 with a byte-order mark, so its accents survive in Excel', () => {
    const latin = Uint8Array.from([
      ...new TextEncoder().encode('Question,Answer\nS'),
      0xe9,
      ...new TextEncoder().encode('curit' + String.fromCharCode(0x3f) + ',\n'),
    ]);
    const out = writeAnswersToCsv(latin, target(2, 1), [{ sheet: 'CSV', row: 2, answer: 'Oui' }]);
    expect(out).toBe('\ufeffQuestion,Answer\nSécurit?,Oui\n');
  });

  it('replaces a template hint the intake recognised, and nothing else', () => {
    const original = 'Question,Answer\nDate of completion,mm/dd/yyyy\nVendor name,Acme\n';
    const out = writeAnswersToCsv(new TextEncoder().encode(original), target(2, 1), [
      { sheet: 'CSV', row: 2, answer: '2026-11-26', hint: 'mm/dd/yyyy' },
      { sheet: 'CSV', row: 3, answer: 'Other Corp', hint: null },
    ]);
    expect(out).toBe('Question,Answer\nDate of completion,2026-11-26\nVendor name,Acme\n');
  });

  it('marks the answer under its choice column only on a record with no mark under any of them', () => {
    const original =
      'Question,Yes,No,N/A,Notes\nDo you encrypt?,,,,\nDo you log access?,,x,,\nDo you run pen tests?,,,,\n';
    const out = writeAnswersToCsv(
      new TextEncoder().encode(original),
      {
        ...target(5, 1),
        questionColumn: 1,
        choiceColumns: [
          { column: 2, label: 'Yes', mark: 'x' },
          { column: 3, label: 'No', mark: 'x' },
          { column: 4, label: 'N/A', mark: 'x' },
        ],
      },
      [
        { sheet: 'CSV', row: 2, answer: 'Yes, AES-256.', shortAnswer: 'Yes' },
        { sheet: 'CSV', row: 3, answer: 'Yes, to a SIEM.', shortAnswer: 'Yes' },
        { sheet: 'CSV', row: 4, answer: 'Not applicable.', shortAnswer: 'N/A' },
      ],
    );
    expect(out).toBe(
      'Question,Yes,No,N/A,Notes\n' +
        'Do you encrypt?,x,,,"Yes, AES-256."\n' +
        'Do you log access?,,x,,"Yes, to a SIEM."\n' +
        'Do you run pen tests?,,,x,Not applicable.\n',
    );
  });
});
