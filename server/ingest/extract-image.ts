import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import Tesseract from 'tesseract.js';
import { imageSize } from './image-size';
import { MAX_IMAGE_PIXELS, corruptMessage, imageTooLargeMessage } from './messages';
import { type Extraction, ExtractionError } from './types';

// Lines Tesseract reads with less confidence than this are noise (specks, photos, rules), not words.
const MIN_LINE_CONFIDENCE = 45;

let worker: Promise<Tesseract.Worker> | null = null;

/** The OCR engine could not start (its model files are missing or unreadable): a server problem, not the file's. */
export class OcrUnavailableError extends Error {
  override readonly name = 'OcrUnavailableError';
}

/**
 * Image (PNG, JPEG, WebP): English OCR with Tesseract, fully offline. One Tesseract worker is started on first use
 * (≈0.5 s to load the model) and reused; low-confidence lines are dropped. The result is page 1 with no section.
 * An image whose header declares more than MAX_IMAGE_PIXELS is refused ('too_large') before the OCR engine sees it:
 * it would allocate what the header says (a 100-byte PNG can declare 50,000 × 50,000 pixels, 7.5 GB), and 50
 * megapixels is more than a page scanned at 600 dpi (35) or a 48-megapixel phone photo.
 */
export async function extractImage(bytes: Uint8Array): Promise<Extraction> {
  const size = imageSize(bytes);
  if (size && size.width * size.height > MAX_IMAGE_PIXELS)
    throw new ExtractionError('too_large', imageTooLargeMessage(size.width, size.height));
  const ocr = await ocrWorker();
  let page: Tesseract.Page;
  try {
    const result = await ocr.recognize(
      Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength),
      {},
      { text: true, blocks: true },
    );
    page = result.data;
  } catch (error) {
    // Tesseract rejects with a bare string; keep it as the cause.
    throw new ExtractionError('corrupt', corruptMessage('image'), { cause: error });
  }
  return { blocks: [{ text: confidentText(page), page: 1, section: null }], pageCount: 1 };
}

/** Stops the OCR worker (it holds ~100 MB); the next image starts a new one. */
export async function closeOcr(): Promise<void> {
  const current = worker;
  worker = null;
  if (current) await current.then((ocr) => ocr.terminate()).catch(() => undefined);
}

function ocrWorker(): Promise<Tesseract.Worker> {
  if (!worker) {
    worker = createOcrWorker().catch((error: unknown) => {
      throw new OcrUnavailableError(`The OCR engine could not start: ${String(error)}`, { cause: error });
    });
    // A failed start (missing model files) must not be cached: report it now, try again next time.
    worker.catch(() => {
      worker = null;
    });
  }
  return worker;
}

function createOcrWorker(): Promise<Tesseract.Worker> {
  return Tesseract.createWorker('eng', Tesseract.OEM.LSTM_ONLY, {
    // The model comes from the installed @tesseract.js-data/eng package, never from the network (tesseract.js
    // downloads from a CDN when langPath is not set). best_int is the LSTM-only model, the one LSTM_ONLY uses.
    langPath: englishModelDirectory(),
    gzip: true,
    // 'none': neither read nor write a cache; tesseract.js would otherwise write eng.traineddata into the working
    // directory (the repository). cachePath points at a temporary directory should that ever change.
    cacheMethod: 'none',
    cachePath: os.tmpdir(),
    // Without a handler tesseract.js rethrows a failed job (an unreadable image) as an uncaught exception that
    // crashes the process; the job's promise rejects anyway, which is all we need.
    errorHandler: () => undefined,
  });
}

function englishModelDirectory(): string {
  const packageJson = createRequire(import.meta.url).resolve('@tesseract.js-data/eng/package.json');
  return path.join(path.dirname(packageJson), '4.0.0_best_int');
}

function confidentText(page: Tesseract.Page): string {
  if (!page.blocks) return page.text;
  const paragraphs: string[] = [];
  for (const block of page.blocks) {
    for (const paragraph of block.paragraphs) {
      const lines = paragraph.lines.filter((line) => line.confidence >= MIN_LINE_CONFIDENCE).map((line) => line.text);
      if (lines.length > 0) paragraphs.push(lines.join('\n'));
    }
  }
  return paragraphs.join('\n\n');
}
