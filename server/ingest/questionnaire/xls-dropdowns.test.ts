import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { readQuestionnaire } from './intake';
import { addListValidation, xlsxOf } from '../../../test/fixtures/questionnaire/intake';
import { xlsWithDropdowns } from '../../../test/fixtures/questionnaire/xls-with-dropdowns';

// An interview-style checklist: no header row, section rows between the questions, the answer a dropdown two
// columns right of the question (the column between holds guidance) and notes beyond it.
const interview: (string | number)[][] = [
  ['Supplier interview checklist'],
  ['Governance'],
  ['Is there an information security policy approved by management?', 'Ask for the approval record', '', ''],
  ['Are security responsibilities assigned to named people?', '', '', ''],
  ['Access control'],
  ['Is multi-factor authentication required for remote access?', 'VPN and webmail', '', ''],
  ['Are user access rights reviewed at least yearly?', '', '', ''],
];
const answerCells = [
  { top: 2, left: 2, bottom: 3, right: 2 },
  { top: 5, left: 2, bottom: 6, right: 2 },
];

describe('dropdowns of an Excel 97–2003 workbook', () => {
  it('finds the answer column of a headerless interview sheet by its dropdown, as in the .xlsx of the same layout', async () => {
    const xls = xlsWithDropdowns(
      [{ name: 'Interview', rows: interview }],
      [{ sheet: 'Interview', ranges: answerCells, list: { values: ['Yes', 'No', 'Partially', 'N/A'] } }],
    );
    const xlsx = await xlsxOf((workbook) => {
      const sheet = workbook.addWorksheet('Interview');
      interview.forEach((row) => sheet.addRow(row));
      addListValidation(sheet, 'C3:C4', '"Yes,No,Partially,N/A"');
      addListValidation(sheet, 'C6:C7', '"Yes,No,Partially,N/A"');
    });

    const fromXls = await readQuestionnaire(xls, 'interview.xls');
    const fromXlsx = await readQuestionnaire(xlsx, 'interview.xlsx');
    expect(fromXls.mappings).toEqual([
      expect.objectContaining({ sheet: 'Interview', questionColumn: 0, answerColumn: 2 }),
    ]);
    expect(fromXls.questions.map((q) => [q.row, q.question, q.section, q.allowedValues])).toEqual([
      [
        3,
        'Is there an information security policy approved by management?',
        'Governance',
        ['Yes', 'No', 'Partially', 'N/A'],
      ],
      [4, 'Are security responsibilities assigned to named people?', 'Governance', ['Yes', 'No', 'Partially', 'N/A']],
      [
        6,
        'Is multi-factor authentication required for remote access?',
        'Access control',
        ['Yes', 'No', 'Partially', 'N/A'],
      ],
      [7, 'Are user access rights reviewed at least yearly?', 'Access control', ['Yes', 'No', 'Partially', 'N/A']],
    ]);
    expect(fromXls.mappings).toEqual(fromXlsx.mappings);
    expect(fromXls.questions).toEqual(fromXlsx.questions);
  });

  it('reads the dropdowns another program wrote: a typed list, a range on a hidden sheet, a defined name', async () => {
    // vendorQuestionnaire() saved by LibreOffice 7.4 as "Excel 97–2003" (soffice --headless --convert-to
    // 'xls:MS Excel 97'): records from an independent writer, not from the builder these other tests use.
    const bytes = new Uint8Array(readFileSync('test/fixtures/questionnaire/vendor-questionnaire-libreoffice.xls'));
    const intake = await readQuestionnaire(bytes, 'vendor.xls');
    const bySheet = (sheet: string) => intake.questions.filter((q) => q.sheet === sheet).map((q) => q.allowedValues);
    expect(bySheet('Security').length).toBeGreaterThan(3);
    expect(new Set(bySheet('Security').map((values) => JSON.stringify(values)))).toEqual(
      new Set([JSON.stringify(['Yes', 'No', 'N/A'])]),
    );
    expect(bySheet('Privacy')).toEqual([
      ['Yes', 'No', 'N/A'],
      ['Yes', 'No', 'N/A'],
    ]);
    expect(bySheet('Resilience')).toEqual([['Yes', 'No', 'N/A']]);
  });

  it('reads a list kept on another sheet, by reference or by a defined name', async () => {
    const lists = {
      name: 'Lists',
      rows: [['Yes'], ['No'], ['Not applicable'], [''], ['Compliant'], ['Non-compliant']],
    };
    const xls = xlsWithDropdowns(
      [
        {
          name: 'Questions',
          rows: [
            ['Ref', 'Question', 'Answer'],
            ['1', 'Do you encrypt backups?', ''],
            ['2', 'Do you log administrator access?', ''],
          ],
        },
        lists,
      ],
      [
        {
          sheet: 'Questions',
          ranges: [{ top: 1, left: 2, bottom: 1, right: 2 }],
          list: { sheet: 'Lists', top: 0, left: 0, bottom: 2, right: 0 },
        },
        { sheet: 'Questions', ranges: [{ top: 2, left: 2, bottom: 2, right: 2 }], list: { name: 'Compliance' } },
      ],
      [{ name: 'Compliance', sheet: 'Lists', top: 4, left: 0, bottom: 5, right: 0 }],
    );
    const intake = await readQuestionnaire(xls, 'lists.xls');
    expect(intake.questions.map((q) => [q.controlId, q.allowedValues])).toEqual([
      ['1', ['Yes', 'No', 'Not applicable']],
      ['2', ['Compliant', 'Non-compliant']],
    ]);
  });

  it('reads the dropdowns of a sheet that also holds a chart (a substream of its own inside the sheet)', async () => {
    const xls = xlsWithDropdowns(
      [
        {
          name: 'Questions',
          rows: [
            ['Question', 'Answer'],
            ['Do you encrypt backups?', ''],
          ],
        },
      ],
      [{ sheet: 'Questions', ranges: [{ top: 1, left: 1, bottom: 1, right: 1 }], list: { values: ['Yes', 'No'] } }],
      [],
      { embeddedChart: true },
    );
    const intake = await readQuestionnaire(xls, 'chart.xls');
    expect(intake.questions.map((q) => q.allowedValues)).toEqual([['Yes', 'No']]);
  });

  it('reads the cells, and the other dropdowns, when one dropdown record is damaged', async () => {
    const xls = xlsWithDropdowns(
      [
        {
          name: 'Questions',
          rows: [
            ['Question', 'Answer'],
            ['Do you encrypt backups?', ''],
            ['Do you log access?', ''],
          ],
        },
      ],
      [
        { sheet: 'Questions', ranges: [{ top: 1, left: 1, bottom: 1, right: 1 }], list: { values: ['Yes', 'No'] } },
        {
          sheet: 'Questions',
          ranges: [{ top: 2, left: 1, bottom: 2, right: 1 }],
          list: { values: ['Agree', 'Disagree'] },
        },
      ],
    );
    // The first typed list now claims 255 characters: more than its record holds.
    const damaged = replaceBytes(xls, [0x17, 6, 0, 0x59, 0x65, 0x73], [0x17, 0xff, 0, 0x59, 0x65, 0x73]);
    const intake = await readQuestionnaire(damaged, 'damaged.xls');
    expect(intake.questions.map((q) => [q.question, q.allowedValues])).toEqual([
      ['Do you encrypt backups?', null],
      ['Do you log access?', ['Agree', 'Disagree']],
    ]);
  });
});

function replaceBytes(bytes: Uint8Array, from: number[], to: number[]): Uint8Array {
  const out = Uint8Array.from(bytes);
  const at = Buffer.from(out).indexOf(Buffer.from(from));
  if (at < 0) throw new Error('pattern not found');
  out.set(to, at);
  return out;
}
