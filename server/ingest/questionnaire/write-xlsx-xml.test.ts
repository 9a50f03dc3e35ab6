import * as XLSX from '@e965/xlsx';
import { strFromU8, strToU8 } from 'fflate';
import { describe, expect, it } from 'vitest';
import {
  cellXml,
  entries,
  handmadeWorkbook,
  loadWithExcelJs,
  sheetOf,
  sheetXml,
} from '../../../test/fixtures/questionnaire/write';
import type { AnswerCell, WriteTarget } from './write-types';
import { writeAnswersToXlsx } from './write-xlsx';

// Layouts exceljs never writes but other producers do (LibreOffice, Google Sheets, .NET's Open XML SDK, hand-rolled
// exporters): the worksheet XML is written by hand so each case is exactly what it claims to be.

const SHEET = 'Sheet & Co';
const PART = 'xl/worksheets/sheet1.xml';
const s = (text: string) => `<is><t>${text}</t></is>`;

const target = (overrides: Partial<WriteTarget> = {}): WriteTarget => ({
  sheet: SHEET,
  headerRow: 1,
  questionColumn: 1,
  answerColumn: 2,
  commentsColumn: null,
  allowedValues: null,
  ...overrides,
});
const answer = (row: number, text = `Answer ${row}`): AnswerCell => ({ sheet: SHEET, row, answer: text });

async function fill(sheet: string, targets: WriteTarget[], answers: AnswerCell[], options = {}) {
  const original = handmadeWorkbook(sheet, options);
  const out = await writeAnswersToXlsx(original, targets, answers);
  const parts = entries(out);
  const xml = strFromU8(parts[PART] ?? new Uint8Array());
  const cells = XLSX.read(out, { type: 'array' }).Sheets[SHEET] ?? {};
  return { original, out, parts, xml, value: (ref: string): unknown => cells[ref]?.v, ref: cells['!ref'] };
}

describe('writeAnswersToXlsx on hand-written sheet XML', () => {
  it('fills sparse rows, and rows and cells that have no r attribute, in order', async () => {
    const sheet = sheetXml(
      `<dimension ref="A1:C6"/><sheetData>` +
        `<row><c t="inlineStr">${s('Question')}</c><c t="inlineStr">${s('Answer')}</c></row>` +
        `<row><c t="inlineStr">${s('Q2')}</c></row>` +
        `<row r="5"><c r="A5" t="inlineStr">${s('Q5')}</c><c r="C5" s="1"><v>7</v></c></row>` +
        `<row><c t="inlineStr">${s('Q6')}</c><c/><c t="inlineStr">${s('after a gap')}</c></row>` +
        `</sheetData>`,
    );
    const { xml, value, ref } = await fill(
      sheet,
      [target()],
      [2, 3, 5, 6, 9].map((row) => answer(row)),
    );
    for (const row of [2, 3, 5, 6, 9]) expect(value(`B${row}`)).toBe(`Answer ${row}`);
    expect([value('A2'), value('A5'), value('C5'), value('A6'), value('C6')]).toEqual([
      'Q2',
      'Q5',
      7,
      'Q6',
      'after a gap',
    ]);
    expect(ref).toBe('A1:C9');
    const rows = [...xml.matchAll(/<row r="(\d+)"/g)].map((m) => Number(m[1]));
    expect(rows).toEqual([1, 2, 3, 5, 6, 9]);
    expect(cellXml(xml, 'C5')).toBe('<c r="C5" s="1"><v>7</v></c>');
    // The edited row's cells that relied on position now carry their r.
    expect(xml).toContain(`<c r="A6" t="inlineStr">`);
  });

  it('uses the namespace prefix of the sheet for the elements it adds', async () => {
    const sheet = sheetXml(
      `<x:dimension ref="A1:A2"/><x:sheetData><x:row r="1"><x:c r="A1" t="inlineStr"><x:is><x:t>Question</x:t></x:is></x:c></x:row>` +
        `<x:row r="2"><x:c r="A2" t="inlineStr"><x:is><x:t>Q2</x:t></x:is></x:c></x:row></x:sheetData>`,
      'x',
    );
    const { xml, value } = await fill(sheet, [target({ answerColumn: null })], [answer(2), answer(3)]);
    expect([value('B1'), value('B2'), value('B3')]).toEqual(['Response', 'Answer 2', 'Answer 3']);
    expect(xml).toContain('<x:cols><x:col min="2" max="2" width="60" customWidth="1"/></x:cols><x:sheetData>');
    expect(xml).toContain('<x:row r="3" spans="2:2"><x:c r="B3" t="inlineStr"><x:is><x:t xml:space="preserve">');
    expect(xml).not.toMatch(/<(?:c|row|is|t)[\s>]/);
  });

  it('writes into a sheet whose sheetData is empty', async () => {
    const { value, ref } = await fill(sheetXml('<dimension ref="A1"/><sheetData/>'), [target()], [answer(2)]);
    expect(value('B2')).toBe('Answer 2');
    expect(ref).toBe('A1:B2');
  });

  it('drops the calculation chain when it overwrites a formula, and leaves it otherwise', async () => {
    const sheet = sheetXml(
      `<sheetData><row r="1"><c r="A1" t="inlineStr">${s('Q')}</c><c r="B1" t="inlineStr">${s('A')}</c></row>` +
        `<row r="2"><c r="A2" t="inlineStr">${s('Q2')}</c><c r="B2"><f>1+1</f><v>2</v></c></row>` +
        `<row r="3"><c r="A3" t="inlineStr">${s('Q3')}</c><c r="C3"><f>B2*2</f><v>4</v></c></row></sheetData>`,
    );
    const calcChain =
      '<calcChain xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><c r="B2" i="1"/><c r="C3"/></calcChain>';
    const over = await fill(sheet, [target()], [answer(2)], { calcChain });
    expect(over.value('B2')).toBe('Answer 2');
    expect(cellXml(over.xml, 'B2')).not.toMatch(/<f>|<v>/);
    expect(over.parts['xl/calcChain.xml']).toBeUndefined();
    expect(strFromU8(over.parts['xl/_rels/workbook.xml.rels'] ?? new Uint8Array())).not.toContain('calcChain');
    expect(strFromU8(over.parts['[Content_Types].xml'] ?? new Uint8Array())).not.toContain('calcChain');
    expect(strFromU8(over.parts['xl/workbook.xml'] ?? new Uint8Array())).toContain(
      '<calcPr calcId="191029" fullCalcOnLoad="1"/>',
    );

    const beside = await fill(sheet, [target()], [answer(3)], { calcChain });
    expect(strFromU8(beside.parts['xl/calcChain.xml'] ?? new Uint8Array())).toBe(calcChain);
    const before = entries(beside.original);
    for (const name of ['[Content_Types].xml', 'xl/_rels/workbook.xml.rels', 'xl/styles.xml']) {
      expect(Buffer.from(beside.parts[name] ?? []).equals(Buffer.from(before[name] ?? [])), name).toBe(true);
    }
  });

  it('adds calcPr in the right place when the workbook has none', async () => {
    const sheet = sheetXml(`<sheetData><row r="2"><c r="C2"><f>1+1</f><v>2</v></c></row></sheetData>`);
    const workbookXml =
      '<?xml version="1.0" encoding="UTF-8"?><workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"><bookViews><workbookView><extLst/></workbookView></bookViews><sheets><sheet name="Sheet &amp; Co" sheetId="1" r:id="rId1"/></sheets><definedNames><definedName name="x">1</definedName></definedNames><extLst/></workbook>';
    const { parts } = await fill(sheet, [target()], [answer(2)], { workbookXml });
    expect(strFromU8(parts['xl/workbook.xml'] ?? new Uint8Array())).toContain(
      '</definedNames><calcPr fullCalcOnLoad="1"/><extLst/></workbook>',
    );
  });

  it('freezes the rest of a shared formula whose master it overwrites, and an array formula it writes into', async () => {
    const sheet = sheetXml(
      `<sheetData><row r="1"><c r="A1" t="inlineStr">${s('Q')}</c></row>` +
        `<row r="2"><c r="A2" t="inlineStr">${s('Q2')}</c><c r="B2" t="str"><f t="shared" ref="B2:B4" si="0">A2&amp;"!"</f><v>Q2!</v></c><c r="D2"><f t="array" ref="D2:D3">ROW(D2:D3)</f><v>2</v></c></row>` +
        `<row r="3"><c r="A3" t="inlineStr">${s('Q3')}</c><c r="B3" t="str"><f t="shared" si="0"/><v>Q3!</v></c><c r="D3"><v>3</v></c></row>` +
        `<row r="4"><c r="A4" t="inlineStr">${s('Q4')}</c><c r="B4" t="str"><f t="shared" si="0"/><v>Q4!</v></c></row>` +
        `<row r="5"><c r="A5" t="inlineStr">${s('Q5')}</c></row></sheetData>`,
    );
    const { xml, value } = await fill(
      sheet,
      [target(), target({ headerRow: 4, answerColumn: 4 })],
      [answer(2), answer(5)],
    );
    expect(value('B2')).toBe('Answer 2');
    expect(cellXml(xml, 'B3')).toBe('<c r="B3" t="str"><v>Q3!</v></c>');
    expect(cellXml(xml, 'B4')).toBe('<c r="B4" t="str"><v>Q4!</v></c>');
    expect(xml).not.toContain('si="0"');
    // D5 is outside the array range D2:D3, so the array formula stays.
    expect(cellXml(xml, 'D2')).toContain('<f t="array"');

    const inside = await fill(sheet, [target({ answerColumn: 4 })], [answer(3)]);
    expect(inside.value('D3')).toBe('Answer 3');
    expect(cellXml(inside.xml, 'D2')).toBe('<c r="D2"><v>2</v></c>');
  });

  it('passes over a hidden range of a few columns, and widens a filler-narrow column it takes', async () => {
    const sheet = (cols: string) =>
      sheetXml(
        `<cols>${cols}</cols><sheetData><row r="1"><c r="A1" t="inlineStr">${s('Question')}</c></row><row r="2"><c r="A2" t="inlineStr">${s('Q2')}</c></row></sheetData>`,
      );
    const passed = await fill(
      sheet('<col min="2" max="3" width="9" hidden="1" customWidth="1"/>'),
      [target({ answerColumn: null })],
      [answer(2)],
    );
    expect(passed.xml).toContain('<col min="2" max="3" width="9" hidden="1" customWidth="1"/>');
    expect([passed.value('B2'), passed.value('D1'), passed.value('D2')]).toEqual([undefined, 'Response', 'Answer 2']);
    const narrow = await fill(
      sheet('<col min="2" max="2" width="6.5" customWidth="1"/>'),
      [target({ answerColumn: null })],
      [answer(2)],
    );
    expect(narrow.xml).toContain('<col min="2" max="2" width="60" customWidth="1"/>');
  });

  it('gives an added column its own visible width inside a hidden or LibreOffice-style column range', async () => {
    const sheet = (cols: string) =>
      sheetXml(
        `<cols>${cols}</cols><sheetData><row r="1"><c r="A1" t="inlineStr">${s('Question')}</c></row><row r="2"><c r="A2" t="inlineStr">${s('Q2')}</c></row></sheetData>`,
      );
    const added = target({ answerColumn: null, addSourceColumn: true });
    const hidden = await fill(
      sheet(
        '<col min="1" max="1" width="50" customWidth="1"/><col min="2" max="16384" width="9" hidden="1" style="2"/>',
      ),
      [added],
      [{ ...answer(2), source: 'Policy, p. 1' }],
    );
    expect(hidden.xml).toContain(
      '<cols><col min="1" max="1" width="50" customWidth="1"/>' +
        '<col min="2" max="2" width="60" style="2" customWidth="1"/>' +
        '<col min="3" max="3" width="40" style="2" customWidth="1"/>' +
        '<col min="4" max="16384" width="9" hidden="1" style="2"/></cols>',
    );
    expect([hidden.value('B1'), hidden.value('B2'), hidden.value('C1'), hidden.value('C2')]).toEqual([
      'Response',
      'Answer 2',
      'Source',
      'Policy, p. 1',
    ]);
    const libre = await fill(
      sheet('<col collapsed="false" customWidth="false" hidden="false" max="1025" min="1" style="0" width="11.52"/>'),
      [target({ answerColumn: null })],
      [answer(2)],
    );
    expect(libre.xml).toContain(
      '<col min="1" max="1" collapsed="false" customWidth="false" hidden="false" style="0" width="11.52"/>' +
        '<col min="2" max="2" collapsed="false" customWidth="1" style="0" width="60"/>' +
        '<col min="3" max="1025" collapsed="false" customWidth="false" hidden="false" style="0" width="11.52"/>',
    );
    const chosen = await fill(
      sheet('<col min="2" max="2" width="25" customWidth="1"/>'),
      [target({ answerColumn: null })],
      [answer(2)],
    );
    expect(chosen.xml).toContain('<cols><col min="2" max="2" width="25" customWidth="1"/></cols>');
  });

  it('styles a new cell like its row or column, keeps ph, drops value metadata, widens spans', async () => {
    const sheet = sheetXml(
      `<cols><col min="2" max="2" width="30" style="2" customWidth="1"/></cols><sheetData>` +
        `<row r="1" spans="1:1"><c r="A1" t="inlineStr">${s('Question')}</c></row>` +
        `<row r="2" spans="1:1"><c r="A2" t="inlineStr">${s('Q2')}</c></row>` +
        `<row r="3" s="1" customFormat="1"><c r="A3" t="inlineStr">${s('Q3')}</c></row>` +
        `<row r="4"><c r="A4" t="inlineStr">${s('Q4')}</c><c r="B4" s="1" ph="1" vm="1" t="e"><v>#VALUE!</v></c></row></sheetData>`,
    );
    const { xml, value } = await fill(sheet, [target()], [answer(2), answer(3), answer(4)]);
    expect(xml).toContain('<row r="2" spans="1:2"><c r="A2"');
    expect(cellXml(xml, 'B2')).toContain('<c r="B2" s="2" t="inlineStr">');
    expect(cellXml(xml, 'B3')).toContain('<c r="B3" s="1" t="inlineStr">');
    expect(cellXml(xml, 'B4')).toBe(
      '<c r="B4" s="1" ph="1" t="inlineStr"><is><t xml:space="preserve">Answer 4</t></is></c>',
    );
    expect(value('B4')).toBe('Answer 4');
  });

  it('writes into the visible cell of a horizontal merge and past a merged header to find a free column', async () => {
    const sheet = sheetXml(
      `<sheetData><row r="1"><c r="A1" t="inlineStr">${s('Question')}</c><c r="B1" t="inlineStr">${s('Answer')}</c></row>` +
        `<row r="2"><c r="A2" t="inlineStr">${s('Q2')}</c></row></sheetData><mergeCells count="2"><mergeCell ref="B2:C2"/><mergeCell ref="D1:E1"/></mergeCells>`,
    );
    const { value } = await fill(
      sheet,
      [target({ answerColumn: 3, addSourceColumn: true })],
      [{ ...answer(2), source: 'Doc' }],
    );
    expect(value('B2')).toBe('Answer 2');
    expect([value('F1'), value('F2')]).toEqual(['Source', 'Doc']);
  });

  it('keeps a UTF-8 byte-order mark and reads exceljs-incompatible packages alike', async () => {
    const body = sheetXml(`<sheetData><row r="1"><c r="A1" t="inlineStr">${s('Question')}</c></row></sheetData>`);
    const bom = new Uint8Array([0xef, 0xbb, 0xbf, ...strToU8(body)]);
    const { parts } = await fill('', [target()], [answer(2)], { sheetBytes: bom });
    expect([...(parts[PART] ?? []).slice(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
  });

  it('writes an edited UTF-16 part back as UTF-8, declared so', async () => {
    const body = sheetXml(`<sheetData><row r="1"><c r="A1" t="inlineStr">${s('Frage')}</c></row></sheetData>`);
    const utf16 = Buffer.from('\uFEFF' + body.replace('encoding="UTF-8"', 'encoding="UTF-16"'), 'utf16le');
    const { parts, value } = await fill('', [target()], [answer(2, 'Ja – verschlüsselt')], { sheetBytes: utf16 });
    expect(strFromU8(parts[PART] ?? new Uint8Array())).toMatch(/^<\?xml version="1.0" encoding="UTF-8"/);
    expect([value('A1'), value('B2')]).toEqual(['Frage', 'Ja – verschlüsselt']);
  });

  it('is readable by exceljs after every kind of edit', async () => {
    const sheet = sheetXml(
      `<dimension ref="A1:A3"/><sheetData><row><c t="inlineStr">${s('Question')}</c></row><row r="3"><c r="A3" t="inlineStr">${s('Q3')}</c></row></sheetData>`,
    );
    const { out } = await fill(
      sheet,
      [target({ answerColumn: null, addSourceColumn: true })],
      [{ ...answer(3), source: 'Doc, p. 2' }],
    );
    const ws = sheetOf(await loadWithExcelJs(out), SHEET);
    expect([ws.getCell('B1').value, ws.getCell('B3').value, ws.getCell('C3').value]).toEqual([
      'Response',
      'Answer 3',
      'Doc, p. 2',
    ]);
  });
});
