import { Worker } from 'node:worker_threads';
import { threadEntry } from '../thread-entry';
import type { EmbedKind } from './local-embedder';
import type { EncoderSpec } from './model-spec';

export type EmbedRequest = { id: number; texts: string[]; kind: EmbedKind };
/** Asks the thread to finish the runs it has begun, free the model and end. */
export type CloseRequest = { close: true };
export type EmbedReply = { id: number; ok: true; vectors: Float32Array } | { id: number; ok: false; message: string };

// From the sources, a .mjs entry that installs tsx first; compiled, embed-thread-worker.ts's own bundle.
const BOOTSTRAP = threadEntry(import.meta.url, {
  source: './embed-thread-bootstrap.mjs',
  compiled: './embed-thread.js',
});

/**
 * One thread holding its own copy of the model: for bulk embedding (entries and chunks, by the background sweep), and
 * another for questions. Started on first use; an idle thread is stopped after `idleMs` (never when it is
 * infinite), giving its memory back. A thread that dies
 * fails the batches it held and is started again on the next call.
 */
/** How long a closing thread may take to finish its runs (a run is a fraction of a second) before it is terminated. */
const CLOSE_GRACE_MS = 10_000;

export class EmbedThread {
  private worker: Worker | null = null;
  private readonly pending = new Map<number, { resolve: (v: Float32Array[]) => void; reject: (e: Error) => void }>();
  private nextId = 1;
  private idleTimer: NodeJS.Timeout | null = null;

  constructor(
    private readonly dir: string,
    private readonly spec: EncoderSpec,
    private readonly idleMs = 60_000,
  ) {}

  private start(): Worker {
    if (this.worker) return this.worker;
    const worker = new Worker(BOOTSTRAP, { workerData: { dir: this.dir, spec: this.spec } });
    worker.unref();
    worker.on('message', (reply: EmbedReply) => {
      const job = this.pending.get(reply.id);
      if (!job) return;
      this.pending.delete(reply.id);
      if (reply.ok) {
        const dim = this.spec.dimension;
        const out: Float32Array[] = [];
        for (let i = 0; i < reply.vectors.length; i += dim) out.push(reply.vectors.subarray(i, i + dim));
        job.resolve(out);
      } else job.reject(new Error(reply.message));
      this.armIdle();
    });
    const fail = (err: Error) => {
      if (this.worker !== worker) return;
      this.worker = null;
      for (const job of this.pending.values()) job.reject(err);
      this.pending.clear();
    };
    worker.on('error', fail);
    worker.on('exit', (code) => fail(new Error(`the embedding thread stopped (exit code ${code})`)));
    this.worker = worker;
    return worker;
  }

  private armIdle() {
    if (this.idleTimer) clearTimeout(this.idleTimer);
    if (this.pending.size > 0 || !Number.isFinite(this.idleMs)) return;
    this.idleTimer = setTimeout(() => void this.close(), this.idleMs);
    this.idleTimer.unref();
  }

  embed(texts: string[], kind: EmbedKind): Promise<Float32Array[]> {
    if (this.idleTimer) clearTimeout(this.idleTimer);
    const worker = this.start();
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      const request: EmbedRequest = { id, texts, kind };
      worker.postMessage(request);
    });
  }

  /**
   * Stops the thread. It is asked to end by itself once the runs it has begun are over: onnxruntime runs a session
   * off the thread's JavaScript, and a thread terminated in the middle of a run aborts the whole process when the
   * run's result comes back (`terminate called after throwing an instance of 'Napi::Error'`). Terminated only if it
   * has not ended within CLOSE_GRACE_MS.
   */
  async close(): Promise<void> {
    const worker = this.worker;
    this.worker = null;
    if (this.idleTimer) clearTimeout(this.idleTimer);
    for (const job of this.pending.values()) job.reject(new Error('the embedding thread was closed'));
    this.pending.clear();
    if (!worker) return;
    const exited = new Promise<void>((resolve) => worker.once('exit', () => resolve()));
    const request: CloseRequest = { close: true };
    worker.postMessage(request);
    const stuck = setTimeout(() => void worker.terminate(), CLOSE_GRACE_MS);
    await exited;
    clearTimeout(stuck);
  }
}
