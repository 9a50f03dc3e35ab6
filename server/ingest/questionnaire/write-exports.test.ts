import * as XLSX from '@e965/xlsx';
import { describe, expect, it } from 'vitest';
import { parseCsv } from '../../../common/import/csv';
import { answersToCsv } from './write-csv';
import { loadWithExcelJs } from '../../../test/fixtures/questionnaire/write';
import { answersToNewXlsx, sheetName } from './write-new-xlsx';
import type { ExportRow } from './write-types';

const ROWS: ExportRow[] = [
  {
    orderIndex: 1,
    question: 'Do you encrypt data at rest?',
    answer: 'Yes, AES-256.\nKeys rotate yearly, "KMS" managed',
    answerType: 'canonical',
    confidence: 92,
    sources: 'Encryption Policy, p. 2',
  },
  {
    orderIndex: 2,
    question: '=HYPERLINK("http://evil.example","click")',
    answer: '+1 is not a formula; -neither; @nor this',
    answerType: 'generated',
    confidence: null,
    sources: '',
  },
];

describe('answersToCsv', () => {
  it('writes RFC 4180 CSV with a BOM, CRLF records and formula guards', () => {
    const csv = answersToCsv(ROWS);
    expect(csv.startsWith('\uFEFF#,Question,Answer,Answer Type,Confidence,Sources\r\n')).toBe(true);
    expect(csv).toContain(
      '1,Do you encrypt data at rest?,"Yes, AES-256.\nKeys rotate yearly, ""KMS"" managed",canonical,92,',
    );
    expect(csv).toContain(
      `2,"'=HYPERLINK(""http://evil.example"",'""click"")","'+1 is not a formula; -neither; @nor this",generated,,`,
    );
    expect(csv.split('\r\n')).toHaveLength(3);
  });

  it('is read back by the CSV import (which strips the guards) with the same questions and answers', () => {
    const parsed = parseCsv(answersToCsv(ROWS));
    expect(parsed.map((e) => [e.question, e.answer])).toEqual(ROWS.map((r) => [r.question, r.answer]));
  });

  it('numbers rows by position when they have no order index, and adds Control ID only when one is known', () => {
    const rows = ROWS.map(({ orderIndex: _, ...rest }, i) => ({ ...rest, controlId: i === 0 ? 'CRY-01' : null }));
    const lines = answersToCsv(rows).slice(1).split('\r\n');
    expect(lines[0]).toBe('#,Control ID,Question,Answer,Answer Type,Confidence,Sources');
    expect(lines[2]?.startsWith('2,,')).toBe(true);
  });
});

describe('answersToNewXlsx', () => {
  it('writes a styled table with a frozen, filtered header and wrapped text', async () => {
    const bytes = await answersToNewXlsx('Acme: Q3/2025 [draft] review for security procurement team', ROWS);
    const wb = await loadWithExcelJs(bytes);
    const ws = wb.worksheets[0];
    if (!ws) throw new Error('no sheet');
    expect(ws.name).toBe('Acme Q3 2025 draft review for s');
    expect(ws.getRow(1).values).toEqual([undefined, '#', 'Question', 'Answer', 'Answer Type', 'Confidence', 'Sources']);
    expect(ws.getCell('B3').value).toBe(ROWS[1]?.question); // a string, never a formula
    expect(ws.getCell('B3').formula).toBeUndefined();
    expect(ws.getCell('E2').value).toBe(92);
    expect(ws.getCell('A1').font?.bold).toBe(true);
    expect(ws.getCell('C2').alignment?.wrapText).toBe(true);
    expect(ws.views[0]).toMatchObject({ state: 'frozen', ySplit: 1 });
    expect(ws.columns?.map((c) => c.width)).toEqual([6, 60, 80, 14, 12, 40]);
    expect(ws.autoFilter).toBeTruthy();
    const sheet = XLSX.read(bytes, { type: 'array' }).Sheets[ws.name];
    expect(sheet?.['C2']?.v).toBe(ROWS[0]?.answer);
  });

  it('makes a valid sheet name from any batch name', () => {
    expect(sheetName('')).toBe('Assessment');
    expect(sheetName("'History'")).toBe('Assessment');
    expect(sheetName('a/b\\c?d*e[f]g:h')).toBe('a b c d e f g h');
    expect(sheetName('😀'.repeat(20))).toHaveLength(30);
  });
});
