import ExcelJS from 'exceljs';
/** The security practices and systems the generated libraries and questionnaires of the benchmarks talk about. */
export const TOPICS = [
  'encrypt customer data at rest',
  'enforce multi-factor authentication for administrators',
  'perform annual penetration tests',
  'retain audit logs',
  'rotate service account passwords',
  'test the business continuity plan',
  'scan dependencies for vulnerabilities',
  'train staff in security awareness',
  'back up production databases',
  'isolate tenants',
  'review user access',
  'revoke access at termination',
  'screen new employees',
  'manage subprocessors',
  'classify data',
  'delete customer data on request',
  'notify customers of breaches',
  'patch critical vulnerabilities',
  'review code before release',
  'monitor for intrusions',
];
export const SYSTEMS = [
  'the web application',
  'the mobile app',
  'the data warehouse',
  'laptops',
  'the public API',
  'the support desk',
  'CI/CD pipelines',
  'the HR system',
  'billing',
  'partner integrations',
];

export type LibraryEntry = { question: string; answer: string; tags: string[] };

/**
 * `n` library entries: one per (practice, system) pair the questions ask about, the rest unrelated product
 * questions, so each library question has one right answer among thousands (bench:assessment, bench:scale).
 */
export function libraryEntries(n: number): LibraryEntry[] {
  const features = ['export', 'audit trail', 'webhook', 'report', 'approval flow', 'invoice parser', 'vendor portal'];
  const aspects = ['retention', 'rate limits', 'localisation', 'accessibility', 'time zones', 'currency', 'limits'];
  return Array.from({ length: n }, (_, i) => {
    if (i < TOPICS.length * SYSTEMS.length) {
      const topic = TOPICS[i % TOPICS.length] ?? '';
      const system = SYSTEMS[Math.floor(i / TOPICS.length)] ?? '';
      return {
        question: `Do you ${topic} for ${system}?`,
        answer: `Yes. We ${topic} for ${system}, as the security policy requires; evidence EV-${i}.`,
        tags: [`domain-${i % 12}`],
      };
    }
    const feature = features[i % features.length] ?? '';
    const aspect = aspects[Math.floor(i / features.length) % aspects.length] ?? '';
    return {
      question: `How does the ${feature} feature handle ${aspect} for account ${i}?`,
      answer: `The ${feature} feature handles ${aspect} per account; account ${i} uses the default settings.`,
      tags: [`product-${i % 20}`],
    };
  });
}

/** The questionnaire's i-th question: library questions in four phrasings, some of which nothing answers. */
export function questionnaireQuestion(i: number, salt: string): string {
  const topic = TOPICS[(i * 7) % TOPICS.length] ?? '';
  const system = SYSTEMS[(i * 3) % SYSTEMS.length] ?? '';
  const forms = [
    `Do you ${topic} for ${system}?`,
    `Describe how you ${topic} (${salt} item ${i}).`,
    `Is it policy to ${topic} for ${system}?`,
    `How often do you ${topic}?`,
  ];
  return forms[i % forms.length] ?? '';
}

/** An XLSX questionnaire as customers send them: title block, header, section rows, a Yes/No dropdown column. */
export async function questionnaireXlsx(n: number, salt: string): Promise<Uint8Array> {
  const wb = new ExcelJS.Workbook();
  const ws = wb.addWorksheet('Questionnaire');
  ws.addRow([`Vendor Security Assessment ${salt}`]);
  ws.addRow([]);
  ws.addRow(['Ref', 'Question', 'Response', 'Comments']);
  for (let i = 0; i < n; i++) {
    if (i % 50 === 0) ws.addRow(['', `Section ${i / 50 + 1}`]);
    const row = ws.addRow([`Q-${i + 1}`, questionnaireQuestion(i, salt), '', '']);
    row.getCell(3).dataValidation = { type: 'list', allowBlank: true, formulae: ['"Yes,No,N/A"'] };
  }
  return new Uint8Array(await wb.xlsx.writeBuffer());
}
