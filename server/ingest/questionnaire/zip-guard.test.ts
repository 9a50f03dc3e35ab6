import zlib from 'node:zlib';
import { zipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import {
  deflatedZeros,
  encryptedOfficeFile,
  rawZip,
  vendorQuestionnaire,
  xlsOf,
} from '../../../test/fixtures/questionnaire/intake';
import { QuestionnaireError } from './types';
import { PASSWORD_PROTECTED_MESSAGE, assertSafeZip, isCfb, isEncryptedOfficeContainer } from './zip-guard';

function caught(run: () => unknown): unknown {
  try {
    run();
  } catch (error) {
    return error;
  }
  throw new Error('expected an error');
}

const contentTypes = (): Parameters<typeof rawZip>[0][number] => {
  const data = Buffer.from('<Types/>');
  return { name: '[Content_Types].xml', data, method: 0, crc: zlib.crc32(data), declaredSize: data.length };
};

describe('assertSafeZip', () => {
  it('accepts a real workbook and lists its parts', async () => {
    const entries = assertSafeZip(await vendorQuestionnaire());
    expect(entries.map((entry) => entry.name)).toContain('xl/workbook.xml');
    expect(entries.every((entry) => !entry.encrypted)).toBe(true);
  });

  it('rejects a zip bomb from its central directory, without inflating it', () => {
    // 150 MB of zeros in a few hundred kilobytes, named like the heart of a workbook.
    const zeros = deflatedZeros(150);
    const bomb = rawZip([
      contentTypes(),
      { name: 'xl/workbook.xml', data: zeros.data, method: 8, crc: zeros.crc, declaredSize: zeros.size },
    ]);
    expect(bomb.length).toBeLessThan(1024 * 1024);
    const before = process.memoryUsage().arrayBuffers;
    const error = caught(() => assertSafeZip(bomb));
    expect(process.memoryUsage().arrayBuffers - before).toBeLessThan(20 * 1024 * 1024);
    expect(error).toBeInstanceOf(QuestionnaireError);
    expect(error).toMatchObject({ status: 413, code: 'too_large' });
    expect((error as Error).message).toMatch(/expands to too much data/);
  });

  it('rejects an entry compressed far beyond what real files reach', () => {
    const zeros = deflatedZeros(3);
    const zip = rawZip([
      { name: 'xl/sharedStrings.xml', data: zeros.data, method: 8, crc: zeros.crc, declaredSize: zeros.size },
    ]);
    expect(caught(() => assertSafeZip(zip))).toMatchObject({ status: 413, code: 'too_large' });
  });

  it('rejects an entry that holds more than its directory declares, stopping early', () => {
    const zeros = deflatedZeros(40);
    const liar = rawZip([{ name: 'xl/workbook.xml', data: zeros.data, method: 8, crc: zeros.crc, declaredSize: 1000 }]);
    const error = caught(() => assertSafeZip(liar));
    expect(error).toMatchObject({ status: 413, code: 'too_large' });
  });

  it('applies the total, per-entry and entry-count limits', () => {
    const files: Record<string, Uint8Array> = {};
    for (let index = 0; index < 12; index += 1) files[`part${index}.xml`] = new Uint8Array(1000).fill(65 + index);
    const zip = zipSync(files, { level: 0 });
    expect(() => assertSafeZip(zip)).not.toThrow();
    expect(caught(() => assertSafeZip(zip, { maxEntries: 10 }))).toMatchObject({ status: 413 });
    expect(caught(() => assertSafeZip(zip, { maxEntryBytes: 999 }))).toMatchObject({ status: 413 });
    expect(caught(() => assertSafeZip(zip, { maxTotalBytes: 11_999 }))).toMatchObject({ status: 413 });
  });

  it('rejects entries that share their compressed data', () => {
    const data = Buffer.from('<worksheet/>');
    const zip = rawZip([{ name: 'a.xml', data, method: 0, crc: zlib.crc32(data), declaredSize: data.length }]);
    // Point a second central record at the first entry's bytes (the "overlapping files" bomb).
    const view = Buffer.from(zip);
    const eocd = view.length - 22;
    const directoryOffset = view.readUInt32LE(eocd + 16);
    const record = view.subarray(directoryOffset, eocd);
    const doubled = Buffer.concat([view.subarray(0, eocd), record, view.subarray(eocd)]);
    doubled.writeUInt16LE(2, doubled.length - 22 + 8);
    doubled.writeUInt16LE(2, doubled.length - 22 + 10);
    doubled.writeUInt32LE(record.length * 2, doubled.length - 22 + 12);
    expect(caught(() => assertSafeZip(new Uint8Array(doubled)))).toMatchObject({ code: 'corrupt' });
  });

  it('says a zip with encrypted entries is password-protected', () => {
    const data = Buffer.from('secret');
    const zip = rawZip([{ name: 'xl/workbook.xml', data, method: 0, crc: 0, declaredSize: data.length, flags: 1 }]);
    expect(caught(() => assertSafeZip(zip))).toMatchObject({
      status: 422,
      code: 'encrypted',
      message: PASSWORD_PROTECTED_MESSAGE,
    });
  });

  it('says an encrypted Office file (OLE container) is password-protected, and a legacy .xls is not a zip', () => {
    const encrypted = encryptedOfficeFile();
    expect(isCfb(encrypted)).toBe(true);
    expect(isEncryptedOfficeContainer(encrypted)).toBe(true);
    expect(caught(() => assertSafeZip(encrypted))).toMatchObject({
      code: 'encrypted',
      message: 'This workbook is password-protected. Remove the password and upload it again.',
    });
    const xls = xlsOf([['Question'], ['Do you encrypt backups?']]);
    expect(isEncryptedOfficeContainer(xls)).toBe(false);
    expect(caught(() => assertSafeZip(xls))).toMatchObject({ code: 'corrupt' });
  });

  it('calls anything else damaged', async () => {
    expect(caught(() => assertSafeZip(new TextEncoder().encode('Question,Answer\n')))).toMatchObject({
      status: 422,
      code: 'corrupt',
    });
    const workbook = await vendorQuestionnaire();
    expect(caught(() => assertSafeZip(workbook.subarray(0, workbook.length - 100)))).toMatchObject({ code: 'corrupt' });
    expect(caught(() => assertSafeZip(new Uint8Array(0)))).toMatchObject({ code: 'corrupt' });
  });
});
