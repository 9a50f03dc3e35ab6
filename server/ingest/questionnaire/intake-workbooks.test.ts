import { describe, expect, it } from 'vitest';
import { detectLayout } from './detect';
import { extractQuestions } from './extract-questions';
import { readQuestionnaire } from './intake';
import { tablesOf } from './read-docx';
import { addListValidation, xlsOf, xlsxOf } from '../../../test/fixtures/questionnaire/intake';
import { isTemplateHint } from './template-hints';
import type { Intake } from './types';

// Workbooks with the traits of real publishers' questionnaires (HECVAT-, SAMM-, CAIQ-like), built here: the real
// files are measured by `npm run bench:intake`, never read by tests.

const DOCUMENTATION = [
  'Have you undergone a SSAE 18 audit?',
  'Do you conform with a specific industry standard security framework?',
  'Does your organization have a data privacy policy?',
];
const COMPANY = [
  'Describe your organization’s business background and ownership structure.',
  'Do you have existing higher education customers?',
];

/** A HECVAT-like workbook: contact fields above the first header, headers per section, references sheets. */
function hecvatLike(options: { prefilled?: string } = {}): Promise<Uint8Array> {
  return xlsxOf((workbook) => {
    const intro = workbook.addWorksheet('Introduction');
    intro.addRow(['Higher Education Community Vendor Assessment Toolkit']);
    intro.addRow(['Do you need help? Read the Instructions tab before you start.']);
    intro.addRow(['Why do we ask these questions? Institutions must assess the risk of every vendor.']);

    const sheet = workbook.addWorksheet('Vendor Response');
    sheet.addRow(['Vendor Assessment Toolkit', '', '', '', 'Version 3.06']); // 1
    sheet.addRow(['DATE-01', 'Date', 'mm/dd/yyyy']); // 2
    sheet.addRow(['General Information']); // 3
    sheet.addRow(['GNRL-01', 'Vendor Name', 'Vendor Name']); // 4
    sheet.addRow(['GNRL-02', 'Vendor Contact Email', 'Vendor Contact E-mail Address']); // 5
    sheet.addRow(['Documentation', '', 'Vendor Answers', 'Additional Information', 'Guidance']); // 6
    DOCUMENTATION.forEach((q, i) => sheet.addRow([`DOCU-0${i + 1}`, q, '', '', 'Answer yes if you can.'])); // 7-9
    sheet.addRow(['Company Overview', '', 'Vendor Answers', 'Additional Information', 'Guidance']); // 10
    COMPANY.forEach((q, i) => sheet.addRow([`COMP-0${i + 1}`, q])); // 11-12
    if (options.prefilled) sheet.getCell('C8').value = options.prefilled;
    addListValidation(sheet, 'C7:C9', '"Yes,No"');
    addListValidation(sheet, 'C12', '"Yes,No"');

    const analyst = workbook.addWorksheet('Analyst Reference');
    analyst.addRow(['ID', 'Question', 'Reason for Question', 'Follow-up Responses']);
    [...DOCUMENTATION, ...COMPANY].forEach((q, i) => analyst.addRow([`REF-${i + 1}`, q, 'Sets the scope.', '']));

    const changes = workbook.addWorksheet('ChangeLog');
    changes.addRow(['Item', 'Description of change']);
    changes.addRow(['DOCU-02', 'Do you conform with a specific framework? was reworded.']);
    changes.addRow(['COMP-01', 'Describe your business background? now asks for ownership.']);
  });
}

const rows = (intake: Intake, sheet: string) => intake.questions.filter((q) => q.sheet === sheet).map((q) => q.row);

describe('a workbook whose publisher ships reference sheets with the questionnaire', () => {
  it('reads only the sheet to answer and says why each other sheet holding questions is skipped', async () => {
    const intake = await readQuestionnaire(await hecvatLike(), 'hecvat.xlsx');
    expect(new Set(intake.questions.map((q) => q.sheet))).toEqual(new Set(['Vendor Response']));
    const skipped = Object.fromEntries(intake.sheets.map((s) => [s.name, s.skipped]));
    expect(skipped['Analyst Reference']).toMatch(/repeats the questions of "Vendor Response"/);
    expect(skipped['Vendor Response']).toBeNull();
  });

  it('reads a section header that names the answer and comments but leaves the question column blank', async () => {
    const intake = await readQuestionnaire(await hecvatLike(), 'hecvat.xlsx');
    expect(intake.mappings).toEqual([
      { sheet: 'Vendor Response', headerRow: 5, questionColumn: 1, answerColumn: 2, commentsColumn: 3, idColumn: 0 },
    ]);
    // The contact fields above the first header are questions (their ids say so); section headers are not.
    expect(rows(intake, 'Vendor Response')).toEqual([2, 4, 5, 7, 8, 9, 11, 12]);
    expect(intake.questions.find((q) => q.row === 12)).toMatchObject({
      controlId: 'COMP-02',
      section: 'Company Overview',
      allowedValues: ['Yes', 'No'],
    });
  });

  it('tells a template hint in the answer cell from an answer the customer already gave', async () => {
    const intake = await readQuestionnaire(await hecvatLike({ prefilled: 'No' }), 'hecvat.xlsx');
    const at = (row: number) => intake.questions.find((q) => q.row === row);
    expect(at(2)).toMatchObject({ answerHint: 'mm/dd/yyyy', existingAnswer: null });
    expect(at(4)).toMatchObject({ answerHint: 'Vendor Name', existingAnswer: null });
    expect(at(5)).toMatchObject({ answerHint: 'Vendor Contact E-mail Address', existingAnswer: null });
    expect(at(8)).toMatchObject({ answerHint: null, existingAnswer: 'No' });
  });
});

describe('a long list whose sections are named in a column of their own', () => {
  // The traits of a SIG-style export: section titles alone in column A, items in B, among them a contact block of
  // short fields to fill in and questions whose choices are listed in the rows below them.
  const build = () =>
    xlsxOf((workbook) => {
      const sheet = workbook.addWorksheet('Assessment');
      sheet.addRow(['Section', 'Question']); // 1
      sheet.addRow(['Business Information']); // 2
      sheet.addRow(['', 'Assessee Name']); // 3
      sheet.addRow(['', 'Date of Response']); // 4
      sheet.addRow(['', 'Is the company publicly or privately held?']); // 5
      sheet.addRow(['Hosting']); // 6
      sheet.addRow(['', 'What deployment models are provided (select all that apply):']); // 7
      sheet.addRow(['', 'Private cloud']); // 8
      sheet.addRow(['', 'Hybrid cloud']); // 9
      sheet.addRow(['', 'Do you use a third party to host the service?']); // 10
      sheet.addRow(['', 'Backup site physical address']); // 11
      sheet.addRow(['Access Control']); // 12
      sheet.addRow(['', 'Is multi-factor authentication required for administrators?']); // 13
      sheet.addRow(['', 'Are access rights reviewed at least quarterly?']); // 14
      sheet.addRow(['', 'Is there a formal process for revoking access on termination?']); // 15
      const evaluation = workbook.addWorksheet('Institution Evaluation');
      evaluation.addRow(['Cells A20 to A40 have intentionally been left blank.', '', 'Include in Score?', 'Jump to']);
    });

  it("reads the fields as questions and a question's listed choices as part of it", async () => {
    const intake = await readQuestionnaire(await build(), 'sig.xlsx');
    expect(rows(intake, 'Assessment')).toEqual([3, 4, 5, 7, 10, 11, 13, 14, 15]);
    expect(intake.questions.find((q) => q.row === 3)?.section).toBe('Business Information');
    expect(intake.questions.find((q) => q.row === 10)?.section).toBe('Hosting');
  });

  it('keeps fields a question asks for, sub-headings as sections, and headings after a question with a dropdown', async () => {
    const bytes = await xlsxOf((workbook) => {
      const sheet = workbook.addWorksheet('Security Evaluation');
      sheet.addRow(['', 'Question', 'Answer']); // 1
      sheet.addRow(['Contacts']); // 2
      sheet.addRow(['', 'Please provide the following for your primary contact:']); // 3
      sheet.addRow(['', 'Contact name']); // 4
      sheet.addRow(['', 'Contact email']); // 5
      sheet.addRow(['A.5 Information security policies']); // 6
      sheet.addRow(['', 'Management direction for information security']); // 7
      sheet.addRow(['', 'Are the policies approved by management?']); // 8
      sheet.addRow(['', 'Which frameworks do you follow? (select all that apply)', '']); // 9
      sheet.addRow(['', 'Network Security']); // 10
      sheet.addRow(['', 'Is inbound traffic denied by default?']); // 11
      sheet.addRow(['', 'Are firewall rules reviewed every six months?']); // 12
      sheet.addRow(['', 'Is remote administration restricted to a VPN?']); // 13
      addListValidation(sheet, 'C9', '"ISO 27001,SOC 2,NIST CSF"');
      const privacy = workbook.addWorksheet('Privacy');
      privacy.addRow(['Question', 'Answer']);
      privacy.addRow(['Do you appoint a data protection officer?', '']);
      privacy.addRow(['Do you keep a record of processing activities?', '']);
    });
    const intake = await readQuestionnaire(bytes, 'vendor.xlsx');
    // A questionnaire sheet named "Security Evaluation" is not the recipient's evaluation.
    expect(rows(intake, 'Security Evaluation')).toEqual([3, 4, 5, 8, 9, 11, 12, 13]);
    const at = (row: number) => intake.questions.find((q) => q.sheet === 'Security Evaluation' && q.row === row);
    expect(at(8)?.section).toBe('Management direction for information security');
    expect(at(11)?.section).toBe('Network Security');
    expect(rows(intake, 'Privacy')).toEqual([2, 3]);
  });

  it("leaves out the recipient's evaluation sheet", async () => {
    const intake = await readQuestionnaire(await build(), 'sig.xlsx');
    expect(new Set(intake.questions.map((q) => q.sheet))).toEqual(new Set(['Assessment']));
  });
});

describe('a sheet whose questions carry their own reference', () => {
  it('takes the referenced rows as questions, not the criteria below them, and never a repeated score as an id', async () => {
    const bytes = await xlsxOf((workbook) => {
      const sheet = workbook.addWorksheet('Interview');
      sheet.addRow(['', 'Stream', 'Level', 'Strategy & Metrics', '', 'Answer', '', '', 'Interview Notes']);
      const questions = [
        ['G-SM-A-1-1', 'Do you understand the enterprise-wide risk appetite for your applications?'],
        ['G-SM-A-2-1', 'Do you have a strategic plan for application security?'],
        ['G-SM-B-1-1', 'Do you use a set of metrics that measure the program’s effectiveness?'],
      ];
      for (const [id, question] of questions) {
        sheet.addRow([id, 'Create and Promote', '1', question, '', '', '0', '0.000']);
        sheet.addRow(['', '', '', 'You capture the risk appetite of your organization’s executive leadership.']);
      }
      const lookups = workbook.addWorksheet('Lookups');
      lookups.state = 'hidden';
      ['No', 'Yes, for some applications', 'Yes, for all applications'].forEach((v) => lookups.addRow([v]));
      addListValidation(sheet, 'F2', 'Lookups!$A$1:$A$3');
    });
    const intake = await readQuestionnaire(bytes, 'samm.xlsx');
    expect(intake.mappings[0]).toMatchObject({ questionColumn: 3, answerColumn: 5, commentsColumn: 8, idColumn: 0 });
    expect(intake.questions.map((q) => [q.row, q.controlId])).toEqual([
      [2, 'G-SM-A-1-1'],
      [4, 'G-SM-A-2-1'],
      [6, 'G-SM-B-1-1'],
    ]);
    expect(intake.questions[0]?.allowedValues).toEqual([
      'No',
      'Yes, for some applications',
      'Yes, for all applications',
    ]);
  });
});

describe('questionnaires in other languages and formats', () => {
  it('reads a Chinese header and questions ending in a full-width question mark', async () => {
    const bytes = await xlsxOf((workbook) => {
      const sheet = workbook.addWorksheet('安全问卷');
      sheet.addRow(['问题']);
      sheet.addRow(['贵公司是否通过 ISO 27001 认证？']);
      sheet.addRow(['数据中心位于哪个地区？']);
      sheet.addRow(['是否提供 7x24 技术支持？']);
    });
    const intake = await readQuestionnaire(bytes, 'questions.xlsx');
    expect(intake.questions.map((q) => q.row)).toEqual([2, 3, 4]);
    expect(intake.mappings[0]).toMatchObject({ headerRow: 0, questionColumn: 0 });
  });

  it.each([
    ['template.json', '// A questionnaire template\n{ "questionnaire": [ { "text": "Do you encrypt data?" } ] }'],
    ['items.txt', '[{"id": 1, "text": "Do you encrypt data at rest?"}]'],
    ['page.csv', '<html><body><table><tr><td>Do you encrypt data?</td></tr></table></body></html>'],
  ])('refuses %s, which is structured text rather than rows of questions', async (name, text) => {
    await expect(readQuestionnaire(new TextEncoder().encode(text), name)).rejects.toMatchObject({
      status: 400,
      reason: 'unsupported_type',
    });
  });

  it('still reads a CSV whose first question starts with a bracket', async () => {
    const csv = 'Question\n[1] Do you encrypt data at rest?\n[2] Do you rotate keys yearly?\n';
    const intake = await readQuestionnaire(new TextEncoder().encode(csv), 'q.csv');
    expect(intake.questions).toHaveLength(2);
  });
});

describe('template hints', () => {
  it.each([
    ['mm/dd/yyyy', 'Date'],
    ['555-555-5555', 'Vendor Contact Phone Number'],
    ['http://www.vendor.domain/privacynotice', 'Web Link to Product Privacy Notice'],
    ['See Instructions tab for guidance', 'Vendor Data Zone'],
    ['Brief Description of the Product', 'Product Description'],
    ['Enter the product version', 'Product version'],
  ])('"%s" under "%s" is a hint', (cell, question) => {
    expect(isTemplateHint(cell, question)).toBe(true);
  });

  it.each([
    ['2) No', 'Do you have an AI policy?'],
    ['Yes', 'Do you encrypt data at rest?'],
    ['Acme Corp', 'Vendor Name'],
    ['jane@acme.io', 'Vendor Contact Email'],
    ['We review the product description every quarter with the product owner.', 'Product Description'],
  ])('"%s" under "%s" is an answer', (cell, question) => {
    expect(isTemplateHint(cell, question)).toBe(false);
  });
});

describe('rows that are not questions, and fields that are', () => {
  it('skips assertion rows between questions and the footer of a legacy .xls', async () => {
    const bytes = xlsOf([
      ['Ref', 'Question', 'Response'],
      ['1.1', 'Is there a documented information security policy?', ''],
      ['', 'Assertion: the policy is approved by management and reviewed yearly.', ''],
      ['1.2', 'Are employees trained on security at hire and yearly?', ''],
      ['', 'Assertion: training completion is tracked.', ''],
      ['', '© 2024 Shared Assessments. All rights reserved.', ''],
    ]);
    const intake = await readQuestionnaire(bytes, 'legacy.xls');
    expect(intake.questions.map((q) => [q.row, q.controlId])).toEqual([
      [2, '1.1'],
      [4, '1.2'],
    ]);
  });

  it('keeps profile fields ending in a colon as questions, not section titles', async () => {
    const bytes = await xlsxOf((workbook) => {
      const sheet = workbook.addWorksheet('Profile');
      sheet.addRow(['Question', 'Response']);
      sheet.addRow(['Company Information']);
      sheet.addRow(['Legal company name:']);
      sheet.addRow(['Headquarters address:']);
      sheet.addRow(['Do you have a dedicated security team?']);
    });
    const intake = await readQuestionnaire(bytes, 'profile.xlsx');
    expect(intake.questions.map((q) => [q.question, q.section])).toEqual([
      ['Legal company name:', 'Company Information'],
      ['Headquarters address:', 'Company Information'],
      ['Do you have a dedicated security team?', 'Company Information'],
    ]);
  });
});

describe('a Word form', () => {
  it('takes a prompt merged across a table as a question, not as a heading', () => {
    const [sheet] = tablesOf(
      '<table><tr><td colspan="3">Identify additional measures you could take to reduce or eliminate the risks</td></tr>' +
        '<tr><td>Risk</td><td>Options to reduce risk</td><td>Effect on risk</td></tr>' +
        '<tr><td></td><td></td><td></td></tr></table>',
    );
    if (!sheet) throw new Error('no table');
    const layout = detectLayout(sheet);
    if (!layout) throw new Error('no layout');
    expect(extractQuestions(sheet, layout).questions.map((q) => [q.row, q.question])).toEqual([
      [1, 'Identify additional measures you could take to reduce or eliminate the risks'],
    ]);
  });
});
