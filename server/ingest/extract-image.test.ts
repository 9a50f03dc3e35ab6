import { afterAll, describe, expect, it } from 'vitest';
import { closeOcr, extractImage } from './extract-image';
import { extractDocument } from './pipeline';
import { renderPng, whitePng } from '../../test/fixtures/ingest/sample-files';
import { ExtractionError } from './types';

afterAll(() => closeOcr());

describe('extractImage (OCR)', () => {
  it('reads a clear sentence from a screenshot, offline', { timeout: 120_000 }, async () => {
    const png = await renderPng(
      '<body style="margin:40px;background:#fff;color:#000;font:32px sans-serif">' +
        'Backups are encrypted and tested every quarter.</body>',
      { width: 1000, height: 160 },
    );
    const result = await extractDocument(png, 'screenshot.png');
    expect(result).toMatchObject({ kind: 'image', mime: 'image/png', pageCount: 1 });
    expect(result.chunks).toHaveLength(1);
    expect(result.chunks[0]).toMatchObject({ ordinal: 0, page: 1, section: null });
    const words = result.chunks[0]?.text.toLowerCase() ?? '';
    for (const word of ['backups', 'encrypted', 'tested', 'quarter']) expect(words).toContain(word);
  });

  it('finds no text in a blank image', { timeout: 60_000 }, async () => {
    const error = await extractDocument(whitePng(200, 100), 'blank.png').catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ExtractionError);
    expect(error).toMatchObject({ code: 'no_text', message: 'No text could be read from this image.' });
  });

  it('calls an unreadable image damaged, and keeps working after it', { timeout: 60_000 }, async () => {
    const broken = whitePng(50, 50).slice(0, 60);
    const error = await extractImage(broken).catch((caught: unknown) => caught);
    expect(error).toMatchObject({
      code: 'corrupt',
      message: 'The file is damaged or is not a valid PNG, JPEG or WebP image.',
    });
    expect((await extractImage(whitePng(20, 20))).pageCount).toBe(1);
  });
});
