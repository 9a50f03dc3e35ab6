import { describe, expect, it } from 'vitest';
import { parseCsv } from './csv';
import { expectParseError } from './expect-parse-error';

const now = new Date('2025-01-31T14:05:09Z');
const parse = (content: string) => parseCsv(content, { now });

describe('parseCsv: header and rows', () => {
  it('reads question, answer and tags with the CSV defaults', () => {
    expect(parse('question,answer,tags\nDo you use SSO?,Yes,identity;sso\n')).toEqual([
      {
        question: 'Do you use SSO?',
        answer: 'Yes',
        tags: ['identity', 'sso'],
        source: 'CSV import 2025-01-31 14:05',
        confidence: 85,
      },
    ]);
  });

  it('matches headers case-insensitively and through aliases', () => {
    const [entry] = parse('Question,Response,Comments\nDo you use MFA?,Yes,For all staff.');
    expect(entry).toMatchObject({ question: 'Do you use MFA?', answer: 'Yes. For all staff.' });
  });

  it('reads the source and confidence columns', () => {
    const [entry] = parse('question,answer,source,confidence\nQ,A,SOC 2 report,70%');
    expect(entry).toMatchObject({ source: 'SOC 2 report', confidence: 70 });
  });

  it('drops rows lacking a question or an answer, and blank lines', () => {
    const entries = parse('question,answer\n\nQ1,\n,A2\n  \nQ3,A3\n,\n');
    expect(entries.map((e) => e.question)).toEqual(['Q3']);
  });

  it('does not take an id column for the question', () => {
    expect(parse('Question ID,Question,Answer\nIAM-01,Do you use SSO?,Yes')[0]?.question).toBe('Do you use SSO?');
  });

  it('keeps markup as plain text', () => {
    expect(parse('question,answer\nQ,<script>alert("x")</script>')[0]?.answer).toBe('<script>alert("x")</script>');
  });
});

describe('parseCsv: quoting (RFC 4180)', () => {
  it('keeps commas inside quoted values', () => {
    expect(parse('question,answer\n"Do you encrypt, and how?","Yes, AES-256"')[0]).toMatchObject({
      question: 'Do you encrypt, and how?',
      answer: 'Yes, AES-256',
    });
  });

  it('turns doubled quotes into one', () => {
    expect(parse('question,answer\nQ,"We use ""zero trust"" networking"')[0]?.answer).toBe(
      'We use "zero trust" networking',
    );
  });

  it('keeps line breaks inside quoted values, as \\n', () => {
    expect(parse('question,answer\r\nQ,"Line one\r\nLine two"\r\nQ2,A2\r\n').map((e) => e.answer)).toEqual([
      'Line one\nLine two',
      'A2',
    ]);
  });

  it('strips a leading byte-order mark', () => {
    expect(parse('\uFEFFquestion,answer\nQ,A')).toHaveLength(1);
  });

  it('reads CRLF and CR-only files', () => {
    expect(parse('question,answer\r\nQ1,A1\r\nQ2,A2\r\n')).toHaveLength(2);
    expect(parse('question,answer\rQ1,A1\rQ2,A2')).toHaveLength(2);
  });

  it('reads tab-separated text pasted from a spreadsheet, and semicolon-separated files', () => {
    expect(parse('Question\tAnswer\tTags\nQ, really?\tYes, always\ta;b')[0]).toMatchObject({
      question: 'Q, really?',
      answer: 'Yes, always',
      tags: ['a', 'b'],
    });
    expect(parse('question;answer\nQ, really?;Yes')[0]).toMatchObject({ question: 'Q, really?', answer: 'Yes' });
  });

  it('removes the export guard quote', () => {
    expect(parse("question,answer\n'=A1+B1,'-1")[0]).toMatchObject({ question: '=A1+B1', answer: '-1' });
  });
});

describe('parseCsv: errors', () => {
  it('needs a header and at least one data row', () => {
    const message = 'CSV must have header and at least one data row';
    expectParseError(() => parse('question,answer'), message);
    expectParseError(() => parse('question,answer\n\n  \n'), message);
    expectParseError(() => parse(''), message);
  });

  it('needs question and answer columns in the first row', () => {
    const message = "CSV must contain 'question' and 'answer' columns";
    expectParseError(() => parse('q,a\nQ,A'), message);
    expectParseError(() => parse('Title\nquestion,answer\nQ,A'), message);
  });

  it('allows blank lines before the header', () => {
    expect(parse('\n\nquestion,answer\nQ,A')).toHaveLength(1);
  });

  it('refuses a row with too few columns, counting the header as row 1', () => {
    expectParseError(() => parse('question,answer\nQ1,A1\nonly one cell'), 'Row 3: Insufficient columns');
    expectParseError(() => parse('tags,answer,question\nt,A,Q\n\nt,A'), 'Row 4: Insufficient columns');
  });

  it('tolerates missing optional columns at the end of a row', () => {
    expect(parse('question,answer,tags,source\nQ,A')[0]).toMatchObject({
      tags: [],
      source: 'CSV import 2025-01-31 14:05',
    });
  });

  it('refuses an unterminated quote, naming the row it starts on', () => {
    expectParseError(
      () => parse('question,answer\nQ1,A1\nQ2,"never closed\nQ3,A3'),
      'Row 3: A quoted value is never closed',
    );
  });

  it('refuses text after a closing quote', () => {
    expectParseError(
      () => parse('question,answer\n"Q1"x,A1\nQ2,A2'),
      'Row 2: A quoted value has text after its closing quote',
    );
  });

  it('counts rows as records, so a multi-line value is one row', () => {
    expectParseError(() => parse('question,answer\nQ1,"a\nb\nc"\nQ2'), 'Row 3: Insufficient columns');
  });

  it('refuses more than 10,000 entries', () => {
    const rows = Array.from({ length: 10_001 }, (_, i) => `Question ${i},Answer ${i}`);
    expectParseError(
      () => parse(['question,answer', ...rows].join('\n')),
      'An import can hold at most 10,000 entries (this one has 10,001). Split the file and import it in parts.',
    );
  });

  it('refuses a too-long answer with its row number', () => {
    expectParseError(
      () => parse(`question,answer\nQ1,A1\nQ2,${'a'.repeat(20_001)}`),
      'Row 3: Answer is longer than 20,000 characters',
    );
  });
});
