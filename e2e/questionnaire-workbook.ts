import ExcelJS from 'exceljs';

// A questionnaire workbook and library entries for the assessment specs (assessments.e2e.ts).

export const SHEET = 'Security Questionnaire';
/** Row 4 is the header; sections and questions follow (see questionnaireWorkbook). */
export const HEADER_ROW = 4;

type Item = { id: string; question: string } | { section: string };

/** A vendor questionnaire as customers send them: sections of questions, statements among them. */
const ITEMS: Item[] = [
  { section: '1. Data Protection' },
  { id: 'DP-01', question: 'Do you encrypt customer data at rest?' },
  { id: 'DP-02', question: 'Is customer data encrypted in transit using TLS 1.2 or higher?' },
  { id: 'DP-03', question: 'Do you keep backups of customer data in a separate region?' },
  { id: 'DP-04', question: 'Describe your data retention and deletion process for customer data.' },
  { id: 'DP-05', question: 'Do you use customer data to train machine learning models?' },
  { section: '2. Access Control' },
  { id: 'AC-01', question: 'Do you support single sign-on (SAML 2.0) for customer accounts?' },
  { id: 'AC-02', question: 'Is multi-factor authentication enforced for all employees?' },
  { id: 'AC-03', question: 'How often are user access rights reviewed?' },
  { id: 'AC-04', question: 'Are privileged accounts logged and monitored?' },
  { id: 'AC-05', question: 'Provide your password policy requirements.' },
  { section: '3. Business Continuity' },
  { id: 'BC-01', question: 'Do you have a documented business continuity plan?' },
  { id: 'BC-02', question: 'Is the disaster recovery plan tested at least annually?' },
  { id: 'BC-03', question: 'What is your recovery time objective (RTO) for the production service?' },
  { id: 'BC-04', question: 'Do you notify customers of security incidents within 72 hours?' },
  { id: 'BC-05', question: 'Do you carry cyber liability insurance?' },
  { section: '4. Follow-up' },
  { id: 'FU-01', question: 'Is customer data encrypted at rest in every environment?' },
];
export const QUESTIONS = ITEMS.flatMap((item) => ('id' in item ? [item] : []));

/** The spreadsheet row of each question id. */
export const ROW_OF = new Map(
  ITEMS.flatMap((item, index) => ('id' in item ? [[item.id, HEADER_ROW + 1 + index] as const] : [])),
);

export function questionOf(id: string): string {
  const found = QUESTIONS.find((q) => q.id === id);
  if (!found) throw new Error(`no question ${id}`);
  return found.question;
}

/** Library entries that answer some of the questions, phrased a little differently from the workbook. */
export const LIBRARY = [
  {
    question: 'Is customer data encrypted at rest?',
    answer: 'Yes. All customer data is encrypted at rest with AES-256, and keys are rotated every year.',
  },
  {
    question: 'Is customer data encrypted in transit with TLS 1.2 or higher?',
    answer: 'Yes. All connections use TLS 1.2 or higher; older protocols are disabled.',
  },
  {
    question: 'Do you support single sign-on (SAML 2.0) for customer accounts?',
    answer: 'Yes, customer accounts can sign in with SAML 2.0 or OpenID Connect single sign-on.',
  },
  {
    question: 'Is multi-factor authentication enforced for all employees?',
    answer: 'Yes. Every employee signs in with multi-factor authentication using hardware security keys.',
  },
  {
    question: 'Do you notify customers of security incidents within 72 hours?',
    answer: 'Yes. Affected customers are notified of a confirmed security incident within 72 hours.',
  },
];

/**
 * A questionnaire workbook like a prospect sends: a merged title block and instructions above the header row, section
 * rows, a Yes/No/N/A dropdown in the Response column, a Comments column and a hidden sheet holding the list values.
 */
export async function questionnaireWorkbook(): Promise<Buffer> {
  const workbook = new ExcelJS.Workbook();
  const sheet = workbook.addWorksheet(SHEET);
  sheet.columns = [{ width: 10 }, { width: 70 }, { width: 14 }, { width: 50 }];
  sheet.mergeCells('A1:D1');
  sheet.getCell('A1').value = 'Acme Corp - Vendor Security Assessment 2025';
  sheet.getCell('A1').font = { bold: true, size: 14 };
  sheet.mergeCells('A2:D2');
  sheet.getCell('A2').value = 'Answer every question with the Response dropdown and explain your answer in Comments.';
  const header = sheet.getRow(HEADER_ROW);
  header.values = ['ID', 'Question', 'Response', 'Comments'];
  header.font = { bold: true };
  ITEMS.forEach((item, index) => {
    const rowNumber = HEADER_ROW + 1 + index;
    if ('section' in item) {
      sheet.mergeCells(`A${rowNumber}:D${rowNumber}`);
      sheet.getCell(`A${rowNumber}`).value = item.section;
      sheet.getCell(`A${rowNumber}`).font = { bold: true };
      return;
    }
    sheet.getCell(`A${rowNumber}`).value = item.id;
    sheet.getCell(`B${rowNumber}`).value = item.question;
    sheet.getCell(`C${rowNumber}`).dataValidation = {
      type: 'list',
      allowBlank: true,
      formulae: ['Lists!$A$1:$A$3'],
    };
  });
  const lists = workbook.addWorksheet('Lists', { state: 'hidden' });
  ['Yes', 'No', 'N/A'].forEach((value, index) => {
    lists.getCell(`A${String(index + 1)}`).value = value;
  });
  return Buffer.from(await workbook.xlsx.writeBuffer());
}
