import { describe, expect, it } from 'vitest';
import { parseRange, parseSheetReference } from './cell-refs';
import { detectLayout } from './detect';
import { extractQuestions } from './extract-questions';
import {
  headerRoles,
  isControlId,
  isInstruction,
  isQuestionLike,
  isStatementLike,
  isTitleLike,
  leadingControlId,
} from './text-patterns';
import type { CellRange, RawSheet } from './types';

function sheetOf(rows: string[][], extras: { name?: string; merges?: CellRange[] } = {}): RawSheet {
  return { name: extras.name ?? 'Sheet', hidden: false, rows, merges: extras.merges ?? [], validations: [] };
}

function questionsOf(sheet: RawSheet): string[] {
  const layout = detectLayout(sheet);
  return layout ? extractQuestions(sheet, layout).questions.map((question) => question.question) : [];
}

describe('text patterns', () => {
  it('names the role of header labels', () => {
    const strongest = (label: string) => {
      const roles = headerRoles(label);
      const [role, score] = Object.entries(roles).sort((a, b) => b[1] - a[1])[0] ?? ['', 0];
      return score > 0 ? role : null;
    };
    expect(
      [
        'Question',
        'Consensus Assessment Questions',
        'Description',
        'Requirement',
        'Control Question',
        'Question/Request',
        'Vendor Response',
        'Yes / No / N/A',
        'Supplier Response',
        'Compliance',
        'Comments',
        'Additional Information',
        'Response Comments',
        'Question ID',
        'Control ID',
        '#',
        'No.',
        'Ref',
        'Ques Num',
        'Control Domain',
        'Category',
        'Owner',
        'Analyst Notes',
        'Reviewer comments',
        'For internal use',
        'Response to Assessor',
        '',
      ].map((label) => [label, strongest(label)]),
    ).toEqual([
      ['Question', 'question'],
      ['Consensus Assessment Questions', 'question'],
      ['Description', 'question'],
      ['Requirement', 'question'],
      ['Control Question', 'question'],
      ['Question/Request', 'question'],
      ['Vendor Response', 'answer'],
      ['Yes / No / N/A', 'answer'],
      ['Supplier Response', 'answer'],
      ['Compliance', 'answer'],
      ['Comments', 'comments'],
      ['Additional Information', 'comments'],
      ['Response Comments', 'comments'],
      ['Question ID', 'id'],
      ['Control ID', 'id'],
      ['#', 'id'],
      ['No.', 'id'],
      ['Ref', 'id'],
      ['Ques Num', 'id'],
      ['Control Domain', 'section'],
      ['Category', 'section'],
      ['Owner', null],
      // The recipient's own columns: never where the vendor's comments go.
      ['Analyst Notes', null],
      ['Reviewer comments', null],
      ['For internal use', null],
      ['Response to Assessor', 'answer'],
      ['', null],
    ]);
    expect(headerRoles('Question').question).toBeGreaterThan(headerRoles('Description').question);
    expect(headerRoles('Description').question).toBeGreaterThan(headerRoles('Control').question);
    expect(headerRoles('Question ID').id).toBeGreaterThan(headerRoles('Control ID').id);
  });

  it('tells questions, statements, titles and instructions apart', () => {
    expect(isQuestionLike('Do you encrypt backups?')).toBe(true);
    expect(isQuestionLike('Describe your encryption at rest')).toBe(true);
    expect(isQuestionLike('1.2 Provide your SOC 2 report.')).toBe(true);
    expect(isQuestionLike('Access Control')).toBe(false);
    expect(isStatementLike('Access to production is restricted to authorized personnel.')).toBe(true);
    expect(isTitleLike('Access Control')).toBe(true);
    expect(isTitleLike('A.5 Information Security Policies')).toBe(true);
    expect(isTitleLike('Do you encrypt backups?')).toBe(false);
    expect(isInstruction('Please answer all questions in column D.')).toBe(true);
    expect(isInstruction('Instructions: select Yes or No.')).toBe(true);
    expect(isInstruction('Please provide your latest penetration test report.')).toBe(false);
    expect(isInstruction('Please describe how access is reviewed.')).toBe(false);
  });

  it('recognises control ids and ids written in front of a question', () => {
    for (const id of ['IAM-02', 'A.5.1', '1.2.3', 'DSP-07.1', 'A&A-01', 'CC6.1', 'AC-2 (1)'])
      expect(isControlId(id)).toBe(true);
    for (const text of ['Yes', '2023', 'Encryption', 'SOC 2 Type II report']) expect(isControlId(text)).toBe(false);
    expect(leadingControlId('IAM-02 Do you review access quarterly?')).toEqual({
      id: 'IAM-02',
      rest: 'Do you review access quarterly?',
    });
    expect(leadingControlId('1.2. Is MFA enforced for administrators?')).toEqual({
      id: '1.2',
      rest: 'Is MFA enforced for administrators?',
    });
    expect(leadingControlId('SOC2 reports are shared under NDA.')).toBeNull();
  });

  it('parses the references of validations and defined names', () => {
    expect(parseRange('B2:D9')).toEqual({ top: 1, left: 1, bottom: 8, right: 3 });
    expect(parseRange('$C$3')).toEqual({ top: 2, left: 2, bottom: 2, right: 2 });
    expect(parseRange('D:D')).toEqual({ top: 0, left: 3, bottom: 1_048_575, right: 3 });
    expect(parseRange('not a ref')).toBeNull();
    expect(parseSheetReference("'My Lists'!$A$1:$A$3")).toEqual({
      sheet: 'My Lists',
      range: { top: 0, left: 0, bottom: 2, right: 0 },
    });
    expect(parseSheetReference('=Lists!A1:A2')?.sheet).toBe('Lists');
    expect(parseSheetReference('[1]Lists!A1:A2')).toBeNull();
  });
});

describe('detectLayout and extractQuestions', () => {
  it('skips a title block, even one mentioning questions', () => {
    const sheet = sheetOf([
      ['Acme Vendor Questionnaire 2024'],
      ['Questions? Contact security@acme.example'],
      ['Completed by:', ''],
      [],
      ['Question', 'Answer'],
      ['Is there a secure development policy?', ''],
    ]);
    expect(detectLayout(sheet)?.mapping).toMatchObject({ headerRow: 4, questionColumn: 0, answerColumn: 1 });
    expect(questionsOf(sheet)).toEqual(['Is there a secure development policy?']);
  });

  it('treats a merge shared by every question cell as layout, and a different one as a banner', () => {
    const rows = [
      ['ID', 'Question', '', '', 'Answer'],
      ['Network Security'],
      ['N.1', 'Firewall rules are reviewed every six months by the network team.'],
      ['N.2', 'Remote administration requires a VPN with MFA.'],
      ['N.3', 'Network segments separate production from corporate systems.'],
    ];
    const merges: CellRange[] = [
      { top: 1, left: 0, bottom: 1, right: 4 },
      { top: 2, left: 1, bottom: 2, right: 3 },
      { top: 3, left: 1, bottom: 3, right: 3 },
      { top: 4, left: 1, bottom: 4, right: 3 },
    ];
    const sheet = sheetOf(rows, { merges });
    const layout = detectLayout(sheet);
    expect(layout?.mapping).toMatchObject({ questionColumn: 1, answerColumn: 4, idColumn: 0 });
    if (!layout) return;
    expect(extractQuestions(sheet, layout).questions.map((q) => [q.controlId, q.section])).toEqual([
      ['N.1', 'Network Security'],
      ['N.2', 'Network Security'],
      ['N.3', 'Network Security'],
    ]);
  });

  it('finds no questionnaire in a glossary, an instructions sheet or a list of dropdown values', () => {
    expect(
      detectLayout(
        sheetOf([
          ['Term', 'Description'],
          ['MFA', 'Multi-factor authentication, a second proof of identity.'],
        ]),
      ),
    ).toBeNull();
    expect(
      detectLayout(
        sheetOf([['How do I fill this in?'], ['What happens after I return the form?']], { name: 'Instructions' }),
      ),
    ).toBeNull();
    expect(detectLayout(sheetOf([['Yes'], ['No'], ['N/A']], { name: 'Lists' }))).toBeNull();
  });

  it('reads an id written in front of the question when there is no id column', () => {
    const sheet = sheetOf([
      ['Question', 'Response'],
      ['IAM-02 Do you review access quarterly?', 'Yes'],
    ]);
    const layout = detectLayout(sheet);
    if (!layout) throw new Error('no layout');
    expect(extractQuestions(sheet, layout).questions).toEqual([
      {
        sheet: 'Sheet',
        row: 2,
        controlId: 'IAM-02',
        question: 'Do you review access quarterly?',
        section: null,
        allowedValues: null,
        existingAnswer: 'Yes',
        answerHint: null,
        existingComment: null,
      },
    ]);
  });

  describe('a sheet whose sections each open with their own header row', () => {
    // The traits of a response sheet that quotes its questions from elsewhere: the label over the reference column
    // names the table ("Required Questions"), the question column beside it has no label, the first header leaves
    // the comments column blank (a later section's header names it), and the recipient keeps a notes column.
    const sheet = sheetOf([
      ['Vendor Response - Product'],
      ['Instructions: answer every question in column C.'],
      ['General Information', '', 'Answer', '', 'Guidance', 'Analyst Notes'],
      ['GEN-01', 'Vendor name', 'Acme', '', '', ''],
      ['Required Questions', '', 'Answer', '', 'Guidance', 'Analyst Notes'],
      ['REQ-01', 'Are you offering a cloud-based product?', '', '', 'Say yes for SaaS.', ''],
      ['Data Protection', '', 'Answer', 'Additional Information', 'Guidance', 'Analyst Notes'],
      ['DAT-01', 'Is the storage of sensitive data encrypted?', '', '', '', ''],
      ['DAT-02', 'Do backups ever leave the primary region?', '', '', '', ''],
      ['DAT-03', 'Describe how keys are rotated.', '', '', '', ''],
    ]);

    it('reads the questions from the unlabelled column beside the references, the table from the first header', () => {
      const layout = detectLayout(sheet);
      expect(layout?.mapping).toMatchObject({ headerRow: 2, questionColumn: 1, answerColumn: 2, idColumn: 0 });
      expect(questionsOf(sheet)).toEqual([
        'Vendor name',
        'Are you offering a cloud-based product?',
        'Is the storage of sensitive data encrypted?',
        'Do backups ever leave the primary region?',
        'Describe how keys are rotated.',
      ]);
    });

    it("writes comments where a later section's header says, never in the recipient's notes column", () => {
      expect(detectLayout(sheet)?.mapping.commentsColumn).toBe(3);
      expect(detectLayout(sheetOf(sheet.rows.slice(0, 6)))?.mapping.commentsColumn).toBeNull();
    });

    it('does not take a title that repeats the answer label for a section header', () => {
      const titled = sheetOf([
        ['', '', 'Vendor Response'],
        ['ID', 'Question', 'Vendor Response', 'Comments'],
        ['Q-1', 'Do you encrypt backups?', '', ''],
        ['Q-2', 'Do you review access quarterly?', '', ''],
      ]);
      expect(detectLayout(titled)?.mapping).toMatchObject({ headerRow: 1, questionColumn: 1, answerColumn: 2 });
    });

    it('keeps a labelled question column that holds the questions', () => {
      const labelled = sheetOf([
        ['Ref', 'Required Questions', 'Answer'],
        ['REQ-01', 'Are you offering a cloud-based product?', ''],
        ['REQ-02', 'Do you process health data?', ''],
      ]);
      expect(detectLayout(labelled)?.mapping).toMatchObject({ questionColumn: 1, idColumn: 0 });
    });
  });

  it('keeps every row in every-row mode, short items included', () => {
    const sheet = sheetOf([['MFA?'], ['Access Control'], ['Please answer all questions in this section.'], ['42']]);
    const layout = detectLayout(sheet, { headerless: 'first-text' });
    if (!layout) throw new Error('no layout');
    expect(extractQuestions(sheet, layout, { everyRow: true }).questions.map((q) => q.question)).toEqual([
      'MFA?',
      'Access Control',
      'Please answer all questions in this section.',
    ]);
  });
});
