// Test and benchmark helpers that generate documents. pdfkit and docx are devDependencies: never import this file
// from production code.
import { Document, HeadingLevel, Packer, PageBreak, Paragraph } from 'docx';
import PDFDocument from 'pdfkit';

const TOPICS = [
  'Access Control',
  'Encryption',
  'Incident Response',
  'Business Continuity',
  'Vendor Management',
  'Secure Development',
  'Logging and Monitoring',
  'Asset Management',
  'Human Resources Security',
  'Physical Security',
  'Vulnerability Management',
  'Data Retention',
  'Network Security',
  'Change Management',
];

const SENTENCES = [
  'Access to production systems requires multi-factor authentication for every employee and contractor.',
  'User access rights are reviewed quarterly by system owners, and unneeded rights are removed within five business days.',
  'Customer data is encrypted at rest with AES-256 and in transit with TLS 1.2 or later.',
  'Encryption keys are stored in a managed key service, rotated every year and never leave the service in clear text.',
  'Security incidents are triaged within one hour and customers are notified of a confirmed breach within 72 hours.',
  'The incident response plan is tested every year with a tabletop exercise that includes engineering and support.',
  'Backups are taken daily, kept for thirty-five days and restored in a test environment every quarter.',
  'The business continuity plan sets a recovery time objective of four hours and a recovery point objective of one hour.',
  'New vendors that process customer data complete a security questionnaire before a contract is signed.',
  'Critical vendors are reassessed every year, including a review of their SOC 2 report and penetration test summary.',
  'Code changes are peer reviewed and pass automated tests and static analysis before they are merged.',
  'Dependencies are scanned for known vulnerabilities on every build, and critical findings block the release.',
  'Application and infrastructure logs are centralised, protected from tampering and kept for one year.',
  'Alerts on suspicious authentication activity page the on-call engineer at any hour.',
  'An inventory of hardware and software assets is maintained automatically and reconciled every month.',
  'Employees complete security awareness training when they join and every year after that.',
  'Background checks are performed on new employees where local law allows.',
  'Offices are protected by badge access, and visitors are escorted at all times.',
  'External penetration tests are performed every year by an independent firm, and findings are tracked to closure.',
  'Critical vulnerabilities are remediated within seven days and high vulnerabilities within thirty days.',
  'Customer data is deleted within thirty days after the end of a contract, unless the law requires otherwise.',
  'Production networks are segmented from corporate networks, and inbound traffic is denied by default.',
  'Changes to production infrastructure are made through version-controlled code and approved by a second engineer.',
  'Administrative access is granted just in time, expires after eight hours and is logged.',
  'Laptops use full-disk encryption, automatic screen lock and endpoint detection and response software.',
  'The information security policy is approved by management and reviewed at least once a year.',
];

/** A deterministic pseudo-random generator (mulberry32), so generated documents are the same on every run. */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** One page of policy-like prose: a heading and paragraphs of about `chars` characters in all. */
export function policyPage(index: number, seed = 1, chars = 2000): { heading: string; paragraphs: string[] } {
  const next = random(seed * 7919 + index);
  const topic = TOPICS[index % TOPICS.length] ?? 'Security';
  const heading = `${index + 1}. ${topic}`;
  const paragraphs: string[] = [];
  let total = 0;
  while (total < chars) {
    const sentences: string[] = [];
    const count = 3 + Math.floor(next() * 3);
    for (let i = 0; i < count; i += 1) {
      const sentence = SENTENCES[Math.floor(next() * SENTENCES.length)] ?? '';
      // A control reference now and then, so pages are not word-for-word alike.
      sentences.push(
        next() < 0.3 ? `${sentence} See control ${topic.slice(0, 2).toUpperCase()}-${index + 1}.${i + 1}.` : sentence,
      );
    }
    const paragraph = sentences.join(' ');
    paragraphs.push(paragraph);
    total += paragraph.length;
  }
  return { heading, paragraphs };
}

/** Renders a PDF with pdfkit: `draw` writes the content; `userPassword` encrypts it. */
export function renderPdf(
  draw: (doc: PDFKit.PDFDocument) => void,
  options: { userPassword?: string } = {},
): Promise<Uint8Array> {
  const doc = new PDFDocument({ ...options, autoFirstPage: true, compress: true });
  const parts: Buffer[] = [];
  doc.on('data', (part: Buffer) => parts.push(part));
  const done = new Promise<Uint8Array>((resolve, reject) => {
    doc.on('end', () => resolve(new Uint8Array(Buffer.concat(parts))));
    doc.on('error', reject);
  });
  draw(doc);
  doc.end();
  return done;
}

/**
 * A PDF of `pages` pages, each with a heading (16 pt) and about `charsPerPage` (default 2,000) characters of
 * policy-like prose (11 pt) from policyPage, so a test can check what comes out.
 */
export function makePdf(
  pages: number,
  opts: { seed?: number; charsPerPage?: number; userPassword?: string } = {},
): Promise<Uint8Array> {
  return renderPdf(
    (doc) => {
      for (let index = 0; index < pages; index += 1) {
        if (index > 0) doc.addPage();
        const { heading, paragraphs } = policyPage(index, opts.seed, opts.charsPerPage);
        doc.fontSize(16).text(heading);
        doc.moveDown(0.5);
        for (const paragraph of paragraphs) {
          // One page per policyPage: stop before pdfkit would flow onto a new page.
          if (doc.y > doc.page.height - doc.page.margins.bottom - 120) break;
          doc.fontSize(11).text(paragraph);
          doc.moveDown(0.6);
        }
      }
    },
    opts.userPassword !== undefined ? { userPassword: opts.userPassword } : {},
  );
}

/** A .docx of about `pages` pages: each a Heading 1 and ~2,000 characters of paragraphs, then a page break. */
export async function makeDocx(pages: number, opts: { seed?: number } = {}): Promise<Uint8Array> {
  const children: Paragraph[] = [];
  for (let index = 0; index < pages; index += 1) {
    const { heading, paragraphs } = policyPage(index, opts.seed);
    children.push(new Paragraph({ text: heading, heading: HeadingLevel.HEADING_1 }));
    for (const paragraph of paragraphs) children.push(new Paragraph({ text: paragraph }));
    if (index < pages - 1) children.push(new Paragraph({ children: [new PageBreak()] }));
  }
  const document = new Document({ sections: [{ children }] });
  return new Uint8Array(await Packer.toBuffer(document));
}
