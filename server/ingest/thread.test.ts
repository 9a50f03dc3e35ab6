import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { extractDocument } from './pipeline';
import { makePdf } from '../../test/fixtures/ingest/make-documents';
import { ExtractionPool, closeExtractionThreads, extractInThread } from './thread';
import { ExtractionError } from './types';

afterAll(() => closeExtractionThreads());

const run = promisify(execFile);
const REPO = fileURLToPath(new URL('../..', import.meta.url));
const THREAD_MODULE = fileURLToPath(new URL('./thread.ts', import.meta.url));

describe('extractInThread', () => {
  it('returns what extractDocument returns', { timeout: 60_000 }, async () => {
    const pdf = await makePdf(3);
    const expected = await extractDocument(pdf, 'policy.pdf');
    expect(await extractInThread(pdf, 'policy.pdf')).toEqual(expected);
  });

  it('rethrows an ExtractionError with its code and message', { timeout: 60_000 }, async () => {
    const locked = await makePdf(1, { userPassword: 'secret' });
    const error = await extractInThread(locked, 'locked.pdf').catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ExtractionError);
    expect(error).toMatchObject({
      code: 'encrypted',
      message: 'This PDF is password-protected. Remove the password and upload it again.',
    });
  });

  it('keeps the main event loop running while a 200-page PDF is extracted', { timeout: 120_000 }, async () => {
    const pdf = await makePdf(200);
    let callbacks = 0;
    let maxLagMs = 0;
    let finished = false;
    // Sample how long a setImmediate callback waits, every few milliseconds, until the extraction ends.
    const sample = () => {
      const scheduled = performance.now();
      setImmediate(() => {
        callbacks += 1;
        maxLagMs = Math.max(maxLagMs, performance.now() - scheduled);
        if (!finished) setTimeout(sample, 5);
      });
    };
    sample();
    const result = await extractInThread(pdf, 'large.pdf');
    finished = true;
    expect(result.pageCount).toBe(200);
    expect(result.chunks.length).toBeGreaterThan(200);
    // No timing threshold (that would flake on a busy machine): only that callbacks kept running meanwhile.
    expect(callbacks, `main thread ran ${callbacks} callbacks, longest wait ${maxLagMs.toFixed(0)} ms`).toBeGreaterThan(
      10,
    );
  });

  it('leaves the caller’s bytes alone unless told to transfer them', { timeout: 60_000 }, async () => {
    const pdf = await makePdf(1);
    const length = pdf.byteLength;
    await extractInThread(pdf, 'policy.pdf');
    expect(pdf.byteLength).toBe(length);
    await extractInThread(pdf, 'policy.pdf', { transfer: true });
    expect(pdf.byteLength).toBe(0);
    // A view on part of a larger buffer is copied even when transfer is asked for.
    const again = await makePdf(1);
    const backing = new Uint8Array(again.length + 10);
    backing.set(again, 5);
    const view = backing.subarray(5, 5 + again.length);
    expect((await extractInThread(view, 'policy.pdf', { transfer: true })).pageCount).toBe(1);
    expect(view.byteLength).toBe(again.length);
  });

  it('reads a small file held in a Node Buffer (a slice of Node’s shared pool), copying it', async () => {
    const bytes = Buffer.from('# Backups\n\nDaily backups are kept for 35 days.\n');
    const result = await extractInThread(bytes, 'backups.md', { transfer: true });
    expect(result.chunks.map((chunk) => chunk.text).join(' ')).toContain('Daily backups are kept for 35 days.');
    expect(bytes.byteLength).toBeGreaterThan(0);
  });
});

describe('ExtractionPool', () => {
  it('runs files one after another in a single thread, and in parallel with more', { timeout: 60_000 }, async () => {
    for (const size of [1, 2]) {
      const pool = new ExtractionPool({ size });
      try {
        const pdfs = await Promise.all([makePdf(2), makePdf(3), makePdf(4)]);
        const results = await Promise.all(pdfs.map((pdf) => pool.extract(pdf, 'p.pdf')));
        expect(results.map((result) => result.pageCount)).toEqual([2, 3, 4]);
      } finally {
        await pool.close();
      }
    }
  });

  it('gives up on a file that takes too long, as one that cannot be processed', { timeout: 60_000 }, async () => {
    const pool = new ExtractionPool({ jobTimeoutMs: 1 });
    try {
      const error = await pool.extract(await makePdf(5), 'slow.pdf').catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(ExtractionError);
      expect(error).toMatchObject({ code: 'corrupt' });
      expect((error as Error).message).toMatch(/took too long/);
    } finally {
      await pool.close();
    }
  });

  it('cancels waiting files with a plain (retryable) error when closed', { timeout: 60_000 }, async () => {
    const pool = new ExtractionPool();
    const pdf = await makePdf(20);
    const first = pool.extract(pdf.slice(), 'a.pdf').catch((caught: unknown) => caught);
    const second = pool.extract(pdf.slice(), 'b.pdf').catch((caught: unknown) => caught);
    await pool.close();
    for (const error of await Promise.all([first, second])) {
      expect(error).toBeInstanceOf(Error);
      expect(error).not.toBeInstanceOf(ExtractionError);
    }
    // A closed pool starts new threads on demand.
    expect((await pool.extract(await makePdf(1), 'c.pdf')).pageCount).toBe(1);
    await pool.close();
  });
});

describe('the thread bootstrap loads TypeScript outside vitest', () => {
  const script = `
    const { extractInThread, closeExtractionThreads } = await import(${JSON.stringify(THREAD_MODULE)});
    const text = new TextEncoder().encode('# Title\\nBody text.');
    const result = await extractInThread(text, 'a.md');
    await closeExtractionThreads();
    console.log(JSON.stringify(result.chunks.map((chunk) => chunk.section)));
  `;

  it('under node --import tsx', { timeout: 60_000 }, async () => {
    const { stdout } = await run(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
      cwd: REPO,
    });
    expect(stdout.trim()).toBe('["Title"]');
  });

  it('under tsx registered at run time, as npm start does', { timeout: 60_000 }, async () => {
    const registered = `import { register } from 'tsx/esm/api'; register(); ${script}`;
    const { stdout } = await run(process.execPath, ['--input-type=module', '-e', registered], { cwd: REPO });
    expect(stdout.trim()).toBe('["Title"]');
  });
});
