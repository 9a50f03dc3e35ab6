import { Worker } from 'node:worker_threads';
import { threadEntry } from '../thread-entry';
import { OUT_OF_MEMORY_MESSAGE, TIMED_OUT_MESSAGE } from './messages';
import type { ExtractionReply, ExtractionRequest, SerializedError } from './thread-protocol';
import { type ExtractedDocument, ExtractionError, isExtractionErrorCode } from './types';

// From the sources, a .mjs entry that installs tsx in the thread before importing thread-worker.ts (why: see that
// file); compiled, thread-worker.ts's own bundle (scripts/build.mjs).
const BOOTSTRAP = threadEntry(import.meta.url, { source: './thread-bootstrap.mjs', compiled: './extract-thread.js' });

/**
 * `size`: threads at most (default 1). `idleTimeoutMs`: an idle thread is stopped after this long, giving back its
 * memory (pdf.js, the OCR model; default 60 s). `jobTimeoutMs`: a file still being extracted after this long is
 * abandoned as too complex (default 10 min). `maxHeapMb`: a thread whose heap grows past this is stopped and the
 * file refused, instead of the whole process running out of memory (default 2048). `maxRssGrowthMb`: the same for
 * the process's resident memory, which also counts what the heap limit does not: buffers and WebAssembly memory,
 * where pdf.js keeps decoded streams (default maxHeapMb + 512). The process's memory cannot be split by thread, so
 * when several files are being read at that moment, each is read again with no other beside it, and only a file
 * that exceeds the limit alone is refused.
 */
export type ExtractionPoolOptions = {
  size?: number;
  idleTimeoutMs?: number;
  jobTimeoutMs?: number;
  maxHeapMb?: number;
  maxRssGrowthMb?: number;
};

type Job = {
  bytes: Uint8Array;
  originalName: string;
  transfer: boolean;
  /** Suspected of the memory growth that stopped several files at once: it runs with no other file beside it. */
  alone: boolean;
  resolve: (result: ExtractedDocument) => void;
  reject: (error: unknown) => void;
};
/** `rssAtStart`: the process's resident memory when the slot's current file started, what its growth is measured from. */
type Slot = { worker: Worker; job: Job | null; timer: NodeJS.Timeout | null; rssAtStart: number };

// How often the process's memory is sampled while files are being read: often enough that a file inflating a
// gigabyte a second overshoots the limit by a hundred megabytes at most; cheap (one read of the process's size).
const MEMORY_CHECK_MS = 100;
/**
 * The thread's young generation, set rather than left to V8: on Node 24 V8's larger default let a thread that
 * outgrew its old generation abort the whole process (FATAL ERROR: Reached heap limit) instead of stopping with
 * ERR_WORKER_OUT_OF_MEMORY (nodejs/node#47224 describes the same abort).
 */
const YOUNG_GENERATION_MB = 16;
const MB = 1024 * 1024;

/**
 * Worker threads that run `extractDocument`, so that parsing a large file never blocks the event loop that serves
 * requests. Threads start on demand, up to `size`; files beyond that wait in order. Idle threads do not keep the
 * process alive and stop after `idleTimeoutMs`.
 */
export class ExtractionPool {
  readonly #size: number;
  readonly #idleTimeoutMs: number;
  readonly #jobTimeoutMs: number;
  readonly #maxHeapMb: number;
  readonly #maxRssGrowthBytes: number;
  readonly #slots: Slot[] = [];
  readonly #queue: Job[] = [];
  #memoryCheck: NodeJS.Timeout | null = null;
  /** Threads stopped for memory that have not exited yet: no file starts until their memory is given back. */
  #draining = 0;
  #nextId = 1;

  constructor(options: ExtractionPoolOptions = {}) {
    this.#size = Math.max(1, Math.floor(options.size ?? 1));
    this.#idleTimeoutMs = options.idleTimeoutMs ?? 60_000;
    this.#jobTimeoutMs = options.jobTimeoutMs ?? 10 * 60_000;
    this.#maxHeapMb = options.maxHeapMb ?? 2048;
    this.#maxRssGrowthBytes = (options.maxRssGrowthMb ?? this.#maxHeapMb + 512) * MB;
  }

  /**
   * Extracts a file in a thread; resolves like `extractDocument` and rejects with the same ExtractionError (code and
   * message intact). The bytes are copied to the thread (a 50 MB file costs the calling thread ~25 ms) unless
   * `transfer` is set, the pool has one thread and the bytes span a whole ArrayBuffer: then they move without a copy
   * and the caller's array is left empty (detached), so set it only when the bytes are not used again. (With several
   * threads a file may have to be read again, see maxRssGrowthMb, so the pool keeps its bytes.)
   */
  extract(bytes: Uint8Array, originalName: string, options: { transfer?: boolean } = {}): Promise<ExtractedDocument> {
    return new Promise((resolve, reject) => {
      this.#queue.push({ bytes, originalName, transfer: options.transfer ?? false, alone: false, resolve, reject });
      this.#dispatch();
    });
  }

  /** Stops every thread; files waiting or being extracted are rejected with a (retryable) plain Error. */
  async close(): Promise<void> {
    const cancelled = () => new Error('Extraction was cancelled because the extraction threads were closed.');
    for (const job of this.#queue.splice(0)) job.reject(cancelled());
    this.#stopMemoryCheck();
    const slots = this.#slots.splice(0);
    await Promise.all(
      slots.map(async (slot) => {
        this.#clearTimer(slot);
        slot.job?.reject(cancelled());
        slot.job = null;
        await slot.worker.terminate();
      }),
    );
  }

  #dispatch(): void {
    // A file started now would have its memory measured from a level the stopped threads still inflate.
    if (this.#draining > 0) return;
    while (this.#queue.length > 0) {
      // A suspect runs with no other file beside it, so that a second excess of memory is its own.
      const busy = this.#slots.some((slot) => slot.job !== null);
      if (this.#slots.some((slot) => slot.job?.alone) || (this.#queue[0]?.alone && busy)) return;
      const slot = this.#slots.find((candidate) => candidate.job === null) ?? this.#spawn();
      const job = slot && this.#queue.shift();
      if (!slot || !job) return;
      this.#start(slot, job);
    }
  }

  #spawn(): Slot | undefined {
    if (this.#slots.length >= this.#size) return undefined;
    const worker = new Worker(BOOTSTRAP, {
      // A thread inherits the process's flags, and --input-type (a `node -e` script) makes a thread fail to start.
      execArgv: process.execArgv.filter((flag) => !flag.startsWith('--input-type')),
      resourceLimits: { maxOldGenerationSizeMb: this.#maxHeapMb, maxYoungGenerationSizeMb: YOUNG_GENERATION_MB },
    });
    const slot: Slot = { worker, job: null, timer: null, rssAtStart: 0 };
    worker.on('message', (reply: ExtractionReply) => this.#finish(slot, reply));
    worker.on('error', (error) => this.#fail(slot, crashError(error)));
    worker.on('exit', (code) =>
      this.#fail(slot, new Error(`The extraction thread stopped unexpectedly (exit code ${code}).`)),
    );
    this.#slots.push(slot);
    return slot;
  }

  #start(slot: Slot, job: Job): void {
    this.#clearTimer(slot);
    slot.job = job;
    slot.worker.ref();
    slot.timer = setTimeout(() => this.#timeOut(slot), this.#jobTimeoutMs);
    slot.rssAtStart = process.memoryUsage.rss();
    this.#startMemoryCheck();
    // Always post a buffer of its own, transferred: cloning a view would copy its whole underlying buffer.
    let bytes = job.bytes;
    let buffer = job.transfer && this.#size === 1 ? wholeBuffer(bytes) : undefined;
    if (!buffer) {
      // A copy in an ArrayBuffer of its own. Not `bytes.slice()`: on a Node Buffer that is a view of the same memory,
      // often Node's shared pool for small buffers, which Node 22+ refuses to transfer (DataCloneError).
      const copy = new Uint8Array(bytes);
      bytes = copy;
      buffer = copy.buffer;
    }
    const request: ExtractionRequest = { id: this.#nextId++, bytes, originalName: job.originalName };
    slot.worker.postMessage(request, [buffer]);
  }

  #finish(slot: Slot, reply: ExtractionReply): void {
    if (!this.#slots.includes(slot)) return; // a late reply from a thread already given up on
    const job = slot.job;
    slot.job = null;
    this.#clearTimer(slot);
    if (job) {
      if (reply.ok) job.resolve(reply.result);
      else job.reject(deserializeError(reply.error));
    }
    // Idle: the thread must not keep the process alive, and gives its memory back after a while.
    slot.worker.unref();
    slot.timer = setTimeout(() => this.#retire(slot), this.#idleTimeoutMs);
    slot.timer.unref();
    this.#dispatch();
    this.#stopMemoryCheckWhenIdle();
  }

  /** The thread died (crash, out of memory, unexpected exit): its file fails, the thread is replaced on demand. */
  #fail(slot: Slot, error: Error): void {
    if (!this.#remove(slot)) return;
    slot.job?.reject(error);
    slot.job = null;
    this.#dispatch();
    this.#stopMemoryCheckWhenIdle();
  }

  #timeOut(slot: Slot): void {
    if (!this.#remove(slot)) return;
    slot.job?.reject(new ExtractionError('corrupt', TIMED_OUT_MESSAGE));
    slot.job = null;
    void slot.worker.terminate();
    this.#dispatch();
    this.#stopMemoryCheckWhenIdle();
  }

  /**
   * The process grew by more than maxRssGrowthMb since the oldest file being read started. One file alone: it is
   * refused like a file that outgrows the heap. Several: they are stopped and queued again first, each to run alone.
   */
  #checkMemory(): void {
    const busy = this.#slots.filter((slot) => slot.job !== null);
    if (busy.length === 0) return this.#stopMemoryCheck();
    const baseline = Math.min(...busy.map((slot) => slot.rssAtStart));
    if (process.memoryUsage.rss() - baseline <= this.#maxRssGrowthBytes) return;
    const suspects: Job[] = [];
    const exits: Promise<number>[] = [];
    for (const slot of busy) {
      const job = slot.job;
      this.#remove(slot);
      slot.job = null;
      exits.push(slot.worker.terminate());
      if (job) suspects.push(job);
    }
    const [only] = suspects;
    if (suspects.length === 1 && only) {
      only.reject(new ExtractionError('corrupt', OUT_OF_MEMORY_MESSAGE));
    } else {
      for (const job of suspects.reverse()) {
        job.alone = true;
        this.#queue.unshift(job);
      }
    }
    this.#stopMemoryCheck();
    this.#draining += 1;
    void Promise.allSettled(exits).then(() => {
      this.#draining -= 1;
      this.#dispatch();
    });
  }

  #startMemoryCheck(): void {
    if (this.#memoryCheck) return;
    this.#memoryCheck = setInterval(() => this.#checkMemory(), MEMORY_CHECK_MS);
    this.#memoryCheck.unref();
  }

  #stopMemoryCheckWhenIdle(): void {
    if (this.#slots.every((slot) => slot.job === null)) this.#stopMemoryCheck();
  }

  #stopMemoryCheck(): void {
    if (this.#memoryCheck) clearInterval(this.#memoryCheck);
    this.#memoryCheck = null;
  }

  #retire(slot: Slot): void {
    if (slot.job === null && this.#remove(slot)) void slot.worker.terminate();
  }

  #remove(slot: Slot): boolean {
    this.#clearTimer(slot);
    const index = this.#slots.indexOf(slot);
    if (index === -1) return false;
    this.#slots.splice(index, 1);
    return true;
  }

  #clearTimer(slot: Slot): void {
    if (slot.timer) clearTimeout(slot.timer);
    slot.timer = null;
  }
}

/** The bytes' ArrayBuffer when they span all of it (and it is not shared memory, which cannot be transferred). */
function wholeBuffer(bytes: Uint8Array): ArrayBuffer | undefined {
  const { buffer } = bytes;
  const whole = buffer instanceof ArrayBuffer && bytes.byteOffset === 0 && bytes.byteLength === buffer.byteLength;
  return whole ? buffer : undefined;
}

function crashError(error: Error): Error {
  // resourceLimits exceeded: the file needs more memory than a thread may use. Refuse it rather than retry forever.
  if ((error as { code?: unknown }).code === 'ERR_WORKER_OUT_OF_MEMORY')
    return new ExtractionError('corrupt', OUT_OF_MEMORY_MESSAGE, { cause: error });
  return new Error(`The extraction thread failed: ${error.message}`, { cause: error });
}

function deserializeError(serialized: SerializedError): Error {
  const error =
    serialized.name === 'ExtractionError' && isExtractionErrorCode(serialized.code)
      ? new ExtractionError(serialized.code, serialized.message)
      : new Error(serialized.message);
  if (serialized.stack) error.stack = serialized.stack;
  return error;
}

let defaultPool = new ExtractionPool();

/**
 * Replaces the shared pool used by extractInThread (e.g. `{ size: WORKER_CONCURRENCY }`); call it at start-up,
 * before any extraction: files in the previous pool are cancelled.
 */
export function configureExtractionThreads(options: ExtractionPoolOptions): Promise<void> {
  const previous = defaultPool;
  defaultPool = new ExtractionPool(options);
  return previous.close();
}

/** `extractDocument` in the shared pool of extraction threads (one thread unless configured). See ExtractionPool. */
export function extractInThread(
  bytes: Uint8Array,
  originalName: string,
  options: { transfer?: boolean } = {},
): Promise<ExtractedDocument> {
  return defaultPool.extract(bytes, originalName, options);
}

/** Stops the shared pool's threads (at shutdown); a later extractInThread starts new ones. */
export function closeExtractionThreads(): Promise<void> {
  return defaultPool.close();
}
