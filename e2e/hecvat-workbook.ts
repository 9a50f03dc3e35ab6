import ExcelJS from 'exceljs';

// A workbook with the traits of EDUCAUSE's HECVAT for the assessment specs (assessments.e2e.ts): the publisher's
// instructions, the sheet to answer and an analyst's sheet quoting its questions. Built here; real files are
// measured by `npm run bench:intake`.

export const HECVAT_SHEET = 'Vendor Response';
export const HECVAT_REFERENCE = 'Analyst Reference';
/** The question the customer had already answered, and their answer, which the library contradicts. */
export const HECVAT_PREFILLED = { id: 'DOCU-02', answer: 'No' } as const;
/** The question the encryption library entry answers. */
export const HECVAT_ANSWERED = 'DATA-01';

const CONTACT = [
  { id: 'GNRL-01', question: 'Vendor Name', hint: 'Vendor Name' },
  { id: 'GNRL-02', question: 'Vendor Contact Email', hint: 'Vendor Contact E-mail Address' },
];
const SECTIONS = [
  {
    title: 'Documentation',
    questions: [
      { id: 'DOCU-01', question: 'Have you undergone a SSAE 18 / SOC 2 Type II audit?' },
      { id: 'DOCU-02', question: 'Is multi-factor authentication enforced for all employees?' },
      { id: 'DOCU-03', question: 'Does your organization have a data privacy policy?' },
    ],
  },
  {
    title: 'Data',
    questions: [
      { id: 'DATA-01', question: 'Do you encrypt customer data at rest?' },
      { id: 'DATA-02', question: 'Do you keep backups of institutional data in a separate region?' },
      { id: 'DATA-03', question: 'Will institutional data be stored outside the United States?' },
    ],
  },
];
export const HECVAT_QUESTIONS = [...CONTACT, ...SECTIONS.flatMap((s) => s.questions)];

/** The Vendor Response rows in order; row 1 is the first. */
const ROWS: (string | null)[][] = [
  ['Higher Education Community Vendor Assessment Toolkit', null, null, 'Version 3.06'],
  ['General Information'],
  ...CONTACT.map((field) => [field.id, field.question, field.hint]),
  ...SECTIONS.flatMap((section) => [
    [section.title, null, 'Vendor Answers', 'Additional Information'],
    ...section.questions.map((item) => [item.id, item.question]),
  ]),
];

/** The Vendor Response row of each id, as Excel numbers it. */
export const HECVAT_ROW_OF = new Map(
  HECVAT_QUESTIONS.map((q) => [q.id, ROWS.findIndex((cells) => cells[0] === q.id) + 1] as const),
);
const HEADER_ROWS = new Set(SECTIONS.map((s) => ROWS.findIndex((cells) => cells[0] === s.title) + 1));

export function hecvatQuestion(id: string): string {
  const found = HECVAT_QUESTIONS.find((q) => q.id === id);
  if (!found) throw new Error(`no question ${id}`);
  return found.question;
}

/**
 * The layout that misled header-based detection: a title block, contact fields (id, label, a hint in the answer
 * cell) above the first header, one header per section naming the answer and comments columns but leaving the
 * question column blank, ids in column A and Yes/No dropdowns in C. One answer is already filled in.
 */
export async function hecvatWorkbook(): Promise<Buffer> {
  const workbook = new ExcelJS.Workbook();
  const instructions = workbook.addWorksheet('Instructions');
  instructions.getColumn(1).width = 100;
  [
    'Higher Education Community Vendor Assessment Toolkit',
    'Complete the Vendor Response tab. Every answer in column C is chosen from its dropdown.',
    'Explain each answer in the Additional Information column; institutions read it before they decide.',
    'Send the completed workbook back to the institution that asked you for it.',
  ].forEach((line) => instructions.addRow([line]));

  const sheet = workbook.addWorksheet(HECVAT_SHEET);
  sheet.columns = [{ width: 12 }, { width: 70 }, { width: 16 }, { width: 50 }];
  ROWS.forEach((cells) => sheet.addRow(cells));
  sheet.getCell('A1').font = { bold: true, size: 14 };
  for (const number of [2, ...HEADER_ROWS]) sheet.getRow(number).font = { bold: true };
  for (const section of SECTIONS) {
    for (const item of section.questions) {
      sheet.getCell(`C${String(HECVAT_ROW_OF.get(item.id))}`).dataValidation = {
        type: 'list',
        allowBlank: true,
        formulae: ['"Yes,No"'],
      };
    }
  }
  sheet.getCell(`C${String(HECVAT_ROW_OF.get(HECVAT_PREFILLED.id))}`).value = HECVAT_PREFILLED.answer;

  const reference = workbook.addWorksheet(HECVAT_REFERENCE);
  reference.addRow(['ID', 'Question', 'Reason for Question', 'Follow-up Responses']);
  SECTIONS.flatMap((s) => s.questions).forEach((item, index) =>
    reference.addRow([`REF-${String(index + 1)}`, item.question, 'Sets the scope of the review.', '']),
  );
  return Buffer.from(await workbook.xlsx.writeBuffer());
}
