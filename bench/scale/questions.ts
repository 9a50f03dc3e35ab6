import { questionnaireQuestion, SYSTEMS, TOPICS } from '../fixtures';

/** Questions the uploaded policies (test/fixtures/ingest/make-documents.ts's policy prose) answer and the library does not. */
const DOCUMENT_QUESTIONS = [
  'How long are backups kept?',
  'Is customer data encrypted at rest and in transit?',
  'How quickly are customers notified of a confirmed breach?',
  'What is the recovery time objective of the business continuity plan?',
  'How often are user access rights reviewed?',
  'Are background checks performed on new employees?',
  'How long are application logs kept?',
  'How fast are critical vulnerabilities remediated?',
  'Are visitors escorted in the offices?',
  'When is customer data deleted after the end of a contract?',
  'Do laptops use full-disk encryption?',
  'How long does just-in-time administrative access last?',
  'Are encryption keys rotated?',
  'Is the incident response plan tested?',
  'Are code changes peer reviewed before they are merged?',
];

/** Questions nothing in the workspace answers: the engine must say 'Needs Review', not guess. */
const UNANSWERABLE = [
  'Do you hold FedRAMP High authorization?',
  'Which cloud regions in South America host customer data?',
  'Do you accept payment by purchase order in Swiss francs?',
  'Is your mainframe edition certified for z/OS 3.1?',
  'How many parking spaces does your headquarters have?',
  'Do you sponsor open-source conferences?',
];

const LIBRARY_FORMS = [
  (t: string, s: string) => `Do you ${t} for ${s}?`,
  (t: string, s: string) => `Does your company ${t} for ${s}?`,
  (t: string, s: string) => `Please confirm that you ${t} for ${s}.`,
];

export type AskKind = 'library' | 'document' | 'unanswerable';

/**
 * The i-th question a simulated user asks: half library questions (in three phrasings), three in ten document
 * questions and two in ten that nothing answers. Deterministic, so two runs ask the same questions.
 */
export function askQuestion(i: number): { kind: AskKind; question: string } {
  const slot = i % 10;
  if (slot < 5) {
    const topic = TOPICS[(i * 7) % TOPICS.length] ?? '';
    const system = SYSTEMS[(i * 3) % SYSTEMS.length] ?? '';
    const form = LIBRARY_FORMS[i % LIBRARY_FORMS.length] ?? LIBRARY_FORMS[0];
    return { kind: 'library', question: form ? form(topic, system) : '' };
  }
  if (slot < 8) return { kind: 'document', question: DOCUMENT_QUESTIONS[i % DOCUMENT_QUESTIONS.length] ?? '' };
  return { kind: 'unanswerable', question: UNANSWERABLE[i % UNANSWERABLE.length] ?? '' };
}

/** The same questions as a one-column CSV, for the specification's `POST /api/assessments/import-csv`. */
export function questionnaireCsv(n: number, salt: string): string {
  const rows = Array.from({ length: n }, (_, i) => `"${questionnaireQuestion(i, salt).replaceAll('"', '""')}"`);
  return `Question\n${rows.join('\n')}\n`;
}
