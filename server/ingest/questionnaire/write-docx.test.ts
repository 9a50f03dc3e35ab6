import { Document, Packer, Paragraph, Table, TableCell, TableRow, TextRun, VerticalMergeType } from 'docx';
import { strFromU8, unzipSync } from 'fflate';
import { beforeAll, describe, expect, it } from 'vitest';
import { readQuestionnaire } from './intake';
import { readDocx } from './read-docx';
import { writeAnswersToDocx } from './write-docx';
import { type AnswerCell, WriteBackError, type WriteTarget } from './write-types';

const cell = (text: string, options: Partial<ConstructorParameters<typeof TableCell>[0]> = {}) =>
  new TableCell({ children: [new Paragraph(text)], ...options });

/**
 * Table 1 has four grid columns; its question rows merge the first two (gridSpan 2), so the answer cell is the
 * third cell of its row but grid column 4. Row 4 is answered already, row 5 holds a nested table in its question
 * cell, rows 6–7 share one answer cell merged down, row 8's answer cell is bold. Table 2 has no answer column.
 */
async function wordQuestionnaire(): Promise<Uint8Array> {
  const nested = new Table({
    rows: [
      new TableRow({ children: [cell('Option'), cell('Applies?')] }),
      new TableRow({ children: [cell('On premises'), cell('')] }),
    ],
  });
  const doc = new Document({
    sections: [
      {
        children: [
          new Paragraph('Vendor Security Review'),
          new Table({
            rows: [
              new TableRow({ children: [cell('No.'), cell('Sub'), cell('Question'), cell('Response')] }),
              new TableRow({ children: [cell('Access control', { columnSpan: 4 })] }),
              new TableRow({
                children: [cell('A.1', { columnSpan: 2 }), cell('Do you enforce MFA for remote access?'), cell('')],
              }),
              new TableRow({
                children: [
                  cell('A.2', { columnSpan: 2 }),
                  cell('Do you review access quarterly?'),
                  cell('Yes, quarterly'),
                ],
              }),
              new TableRow({
                children: [
                  cell('A.3', { columnSpan: 2 }),
                  new TableCell({
                    children: [
                      new Paragraph('Where is customer data hosted? Tick what applies.'),
                      nested,
                      new Paragraph(''),
                    ],
                  }),
                  cell(''),
                ],
              }),
              new TableRow({
                children: [
                  cell('A.4', { columnSpan: 2 }),
                  cell('Describe your password policy.'),
                  cell('', { verticalMerge: VerticalMergeType.RESTART }),
                ],
              }),
              new TableRow({
                children: [
                  cell('A.5', { columnSpan: 2 }),
                  cell('Describe your key rotation.'),
                  cell('', { verticalMerge: VerticalMergeType.CONTINUE }),
                ],
              }),
              new TableRow({
                children: [
                  cell('A.6', { columnSpan: 2 }),
                  cell('Describe your incident response process.'),
                  new TableCell({ children: [new Paragraph({ children: [new TextRun({ text: '', bold: true })] })] }),
                ],
              }),
            ],
          }),
          new Paragraph('Contacts'),
          new Table({
            rows: [
              new TableRow({ children: [cell('Question')] }),
              new TableRow({ children: [cell('Who is your security officer?')] }),
            ],
          }),
        ],
      },
    ],
  });
  return new Uint8Array(await Packer.toBuffer(doc));
}

const TABLE_1: WriteTarget = {
  sheet: 'Table 1',
  headerRow: 1,
  questionColumn: 3,
  answerColumn: 4,
  commentsColumn: null,
  allowedValues: null,
};
const TABLE_2: WriteTarget = { ...TABLE_1, sheet: 'Table 2', questionColumn: 1, answerColumn: null };

const MFA = 'Yes. MFA is enforced for all remote access <via SSO> & "hardware keys".';
const POLICY = 'Passwords have at least 14 characters.\nThey are checked against breach lists.\n\nSee\tPolicy 4.2.';
const answer = (row: number, text: string, sheet = 'Table 1'): AnswerCell => ({ sheet, row, answer: text });
const ANSWERS: AnswerCell[] = [
  answer(3, MFA),
  answer(4, 'No. Reviews are yearly.'), // pre-filled by the customer: stays
  answer(5, 'In the EU only.'),
  answer(6, POLICY),
  answer(7, 'Keys rotate yearly.'), // its answer cell continues row 6's merge: nowhere of its own
  answer(8, 'We follow NIST SP 800-61.'),
  answer(2, 'Who the officer is.', 'Table 2'),
];

const documentXml = (bytes: Uint8Array) => strFromU8(unzipSync(bytes)['word/document.xml'] ?? new Uint8Array());

describe("writeAnswersToDocx: the customer's own Word file, filled in", () => {
  let original: Uint8Array;
  let filled: Uint8Array;
  beforeAll(async () => {
    original = await wordQuestionnaire();
    filled = writeAnswersToDocx(original, [TABLE_1, TABLE_2], ANSWERS);
  });

  it('writes each answer into its empty answer cell, by grid column, as the intake reads it back', async () => {
    const { sheets } = await readDocx(filled);
    expect(sheets.map((s) => s.name)).toEqual(['Table 1', 'Table 2']);
    const rows = sheets[0]?.rows ?? [];
    const answerAt = (row: number) => rows[row - 1]?.[3];
    expect(answerAt(3)).toBe(MFA);
    expect(answerAt(4)).toBe('Yes, quarterly');
    expect(answerAt(5)).toBe('In the EU only.');
    // The intake's cell text collapses blank lines and tabs; the document keeps them (checked below).
    expect(answerAt(6)).toBe(
      'Passwords have at least 14 characters.\nThey are checked against breach lists.\nSee Policy 4.2.',
    );
    expect(answerAt(7) ?? '').toBe('');
    expect(answerAt(8)).toBe('We follow NIST SP 800-61.');
    // The question cells, and the nested table inside one, are as they were.
    expect(rows[4]?.[2]).toContain('Where is customer data hosted?');
    expect(rows[4]?.[2]).toContain('On premises');
    // No column was added anywhere, and the table without an answer column got nothing.
    expect(sheets.map((s) => Math.max(...s.rows.map((r) => r.length)))).toEqual([4, 1]);
    expect(JSON.stringify(sheets[1]?.rows)).not.toContain('officer is');

    const intake = await readQuestionnaire(filled, 'filled.docx');
    expect(intake.questions.filter((q) => q.sheet === 'Table 1').map((q) => [q.row, q.existingAnswer])).toEqual([
      [3, MFA],
      [4, 'Yes, quarterly'],
      [5, 'In the EU only.'],
      [6, expect.stringContaining('Passwords have at least 14 characters.')],
      [7, null],
      [8, 'We follow NIST SP 800-61.'],
    ]);
  });

  it('keeps every other part byte for byte and document.xml outside the written cells', () => {
    const before = unzipSync(original);
    const after = unzipSync(filled);
    expect(Object.keys(after)).toEqual(Object.keys(before));
    for (const [name, bytes] of Object.entries(before)) {
      if (name !== 'word/document.xml') expect(after[name], name).toEqual(bytes);
    }
    // Split at each cell's start: the pieces that changed are the four written cells, and only inside them.
    const beforeCells = documentXml(original).split('<w:tc>');
    const afterCells = documentXml(filled).split('<w:tc>');
    expect(afterCells.length).toBe(beforeCells.length);
    const changed = afterCells.flatMap((piece, i) => (piece === beforeCells[i] ? [] : [i]));
    expect(changed).toHaveLength(4);
    for (const i of changed) {
      const [was = '', now = ''] = [beforeCells[i], afterCells[i]];
      // A cell's properties, if any, come before its first paragraph.
      const props = (piece: string) => piece.slice(0, piece.indexOf('<w:p>'));
      const after = (piece: string) => piece.slice(piece.indexOf('</w:tc>'));
      expect(props(now)).toBe(props(was));
      expect(after(now)).toBe(after(was));
    }
  });

  it('escapes the text, keeps the cell formatting and splits lines into paragraphs', () => {
    const xml = documentXml(filled);
    expect(xml).toContain(
      '<w:t xml:space="preserve">Yes. MFA is enforced for all remote access &lt;via SSO&gt; &amp; "hardware keys".</w:t>',
    );
    expect(xml).toMatch(
      /<w:r><w:rPr><w:b\/><w:bCs\/><\/w:rPr><w:t xml:space="preserve">We follow NIST SP 800-61\.<\/w:t>/,
    );
    const policyCell = /<w:tc>(?:(?!<w:tc>)[\s\S])*?Passwords have[\s\S]*?<\/w:tc>/.exec(xml)?.[0] ?? '';
    expect(policyCell.match(/<w:p>/g)).toHaveLength(4);
    expect(policyCell).toContain(
      '<w:t xml:space="preserve">See</w:t><w:tab/><w:t xml:space="preserve">Policy 4.2.</w:t>',
    );
  });

  it('writes nothing when no table has an answer column, and leaves the package as it was', async () => {
    const out = writeAnswersToDocx(original, [{ ...TABLE_1, answerColumn: null }], [answer(3, MFA)]);
    expect(documentXml(out)).toBe(documentXml(original));
  });

  it('refuses a table the document does not have, and a mapping onto the questions', () => {
    expect(() => writeAnswersToDocx(original, [{ ...TABLE_1, sheet: 'Table 9' }], [])).toThrow(WriteBackError);
    expect(() => writeAnswersToDocx(original, [{ ...TABLE_1, sheet: 'Questions' }], [])).toThrow(/no table/);
    expect(() => writeAnswersToDocx(original, [{ ...TABLE_1, answerColumn: 3 }], [answer(3, MFA)])).toThrow(
      /overwrite its questions/,
    );
    expect(() => writeAnswersToDocx(new Uint8Array([1, 2, 3]), [TABLE_1], [])).toThrow();
  });
});
