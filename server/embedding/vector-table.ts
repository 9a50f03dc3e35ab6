import * as ort from 'onnxruntime-node';
import { onnxModel } from './onnx-graph';

/**
 * A workspace's embedded rows (library entries or chunks) held as int8, for nearest-neighbour search without
 * pgvector (STACK-NOTES: not available everywhere). 100,000 chunks of 384 dimensions are 38 MB instead of 154 MB
 * as float32, and a scan is one int8 matrix product in onnxruntime (MatMulInteger, a few milliseconds) instead of
 * ~50 ms of JavaScript. The int8 scores only choose a shortlist; the shortlist is rescored against the float
 * question, so reported similarities are within ~0.002 of the exact cosine.
 *
 * Rows live in column-major blocks ([dimension × width], the layout onnxruntime's fast u8×s8 kernel wants) of up
 * to BLOCK rows; a block's width doubles as rows arrive, so a scan reads at most twice the rows held (a 10,000-row
 * table would otherwise pay for a 32,768-row block on every question). Each row keeps its own scale, so a vector's
 * largest component always maps to ±127.
 */
export type VectorHit = { id: string; similarity: number };

const BLOCK = 32_768;
/** A new block's first width; it doubles up to BLOCK. */
const FIRST_WIDTH = 1024;
/** Below this many rows a plain JavaScript scan is cheaper than a call into onnxruntime. */
const ORT_FROM_ROWS = 4096;
/** Shortlist size per result wanted, before exact rescoring. */
const SHORTLIST_FACTOR = 4;
const SHORTLIST_MIN = 64;

let scanSession: Promise<ort.InferenceSession | null> | null = null;

/** The process's one scan graph: uint8 question (zero point 128) × int8 block → int32 scores. */
function scanner(): Promise<ort.InferenceSession | null> {
  scanSession ??= ort.InferenceSession.create(
    onnxModel({
      name: 'verity-int8-scan',
      nodes: [{ op: 'MatMulInteger', inputs: ['q', 'm', 'zp'], outputs: ['s'] }],
      inputs: [
        { name: 'q', type: 'uint8', dims: [1, 'd'] },
        { name: 'm', type: 'int8', dims: ['d', 'n'] },
        { name: 'zp', type: 'uint8', dims: [] },
      ],
      outputs: [{ name: 's', type: 'int32', dims: [1, 'n'] }],
    }),
    { intraOpNumThreads: 1, interOpNumThreads: 1 },
  ).catch(() => null);
  return scanSession;
}

export class VectorTable {
  private readonly blocks: Int8Array[] = [];
  /** Columns of each block (its row stride per dimension). */
  private readonly widths: number[] = [];
  private readonly tensors: ort.Tensor[] = [];
  private scales = new Float32Array(0);
  private readonly ids: Array<string | null> = [];
  private readonly rowOf = new Map<string, number>();
  private readonly keyOf = new Map<string, string>();
  private readonly free: number[] = [];

  constructor(readonly dimension: number) {}

  get size(): number {
    return this.rowOf.size;
  }

  key(id: string): string | undefined {
    return this.keyOf.get(id);
  }

  /** The ids held, for bringing the table in line with the database. */
  heldIds(): string[] {
    return [...this.rowOf.keys()];
  }

  /** Stores a vector (any length-`dimension` vector; it is normalized here). False when it cannot be used. */
  set(id: string, key: string, values: ArrayLike<number>): boolean {
    if (values.length !== this.dimension) return false;
    let norm = 0;
    let max = 0;
    for (let i = 0; i < values.length; i += 1) {
      const v = values[i] ?? 0;
      norm += v * v;
      max = Math.max(max, Math.abs(v));
    }
    norm = Math.sqrt(norm);
    if (!Number.isFinite(norm) || norm === 0) {
      this.delete(id);
      return false;
    }
    let row = this.rowOf.get(id);
    if (row === undefined) {
      row = this.free.pop() ?? this.ids.length;
      if (row === this.ids.length) this.ids.push(id);
      else this.ids[row] = id;
      this.rowOf.set(id, row);
      this.ensureCapacity(row + 1);
    }
    this.keyOf.set(id, key);
    const { block, col, width } = this.cell(row);
    // Scale to ±127 on the normalized vector: value = int8 × scale.
    const scale = max / norm / 127;
    for (let d = 0; d < this.dimension; d += 1) block[d * width + col] = Math.round((values[d] ?? 0) / norm / scale);
    this.scales[row] = scale;
    return true;
  }

  delete(id: string) {
    const row = this.rowOf.get(id);
    if (row === undefined) return;
    this.rowOf.delete(id);
    this.keyOf.delete(id);
    this.ids[row] = null;
    const { block, col, width } = this.cell(row);
    for (let d = 0; d < this.dimension; d += 1) block[d * width + col] = 0;
    this.scales[row] = 0;
    this.free.push(row);
  }

  private cell(row: number): { block: Int8Array; col: number; width: number } {
    const b = Math.floor(row / BLOCK);
    return { block: this.blocks[b] as Int8Array, col: row % BLOCK, width: this.widths[b] as number };
  }

  private ensureCapacity(rows: number) {
    for (;;) {
      const last = this.blocks.length - 1;
      const held = last < 0 ? 0 : last * BLOCK + (this.widths[last] as number);
      if (held >= rows) break;
      if (last < 0 || this.widths[last] === BLOCK) {
        this.setBlock(this.blocks.length, new Int8Array(this.dimension * FIRST_WIDTH), FIRST_WIDTH);
        continue;
      }
      // Twice as wide, the rows copied column block by dimension.
      const width = this.widths[last] as number;
      const wider = Math.min(BLOCK, width * 2);
      const old = this.blocks[last] as Int8Array;
      const grown = new Int8Array(this.dimension * wider);
      for (let d = 0; d < this.dimension; d += 1) grown.set(old.subarray(d * width, (d + 1) * width), d * wider);
      this.setBlock(last, grown, wider);
    }
    if (this.scales.length < rows) {
      const scales = new Float32Array(Math.max(rows, this.scales.length * 2));
      scales.set(this.scales);
      this.scales = scales;
    }
  }

  private setBlock(b: number, block: Int8Array, width: number) {
    this.blocks[b] = block;
    this.widths[b] = width;
    this.tensors[b] = new ort.Tensor('int8', block, [this.dimension, width]);
  }

  /** Cosine similarity of a stored row to a normalized query; undefined when the row is not held. */
  similarity(id: string, query: Float32Array): number | undefined {
    const row = this.rowOf.get(id);
    if (row === undefined || query.length !== this.dimension) return undefined;
    return this.rowSimilarity(row, query);
  }

  private rowSimilarity(row: number, query: Float32Array): number {
    const { block, col, width } = this.cell(row);
    let s = 0;
    for (let d = 0; d < this.dimension; d += 1) s += (block[d * width + col] as number) * (query[d] as number);
    return s * (this.scales[row] as number);
  }

  /** The `k` rows most similar to the normalized `query`, best first. */
  async nearest(query: Float32Array, k: number): Promise<VectorHit[]> {
    if (k <= 0 || query.length !== this.dimension || this.rowOf.size === 0) return [];
    const rows = this.ids.length;
    const session = rows >= ORT_FROM_ROWS ? await scanner() : null;
    let shortlist: number[];
    if (session) {
      shortlist = await this.int8Shortlist(session, query, Math.max(SHORTLIST_MIN, k * SHORTLIST_FACTOR));
    } else {
      shortlist = [];
      for (let row = 0; row < rows; row += 1) if (this.ids[row] !== null) shortlist.push(row);
    }
    const hits: VectorHit[] = [];
    for (const row of shortlist) {
      const id = this.ids[row];
      if (id) hits.push({ id, similarity: this.rowSimilarity(row, query) });
    }
    hits.sort((a, b) => b.similarity - a.similarity);
    return hits.slice(0, k);
  }

  private async int8Shortlist(session: ort.InferenceSession, query: Float32Array, n: number): Promise<number[]> {
    let max = 0;
    for (let d = 0; d < query.length; d += 1) max = Math.max(max, Math.abs(query[d] as number));
    const qScale = max > 0 ? 127 / max : 1;
    const q = new Uint8Array(this.dimension);
    for (let d = 0; d < this.dimension; d += 1) q[d] = 128 + Math.round((query[d] as number) * qScale);
    const qTensor = new ort.Tensor('uint8', q, [1, this.dimension]);
    const zp = new ort.Tensor('uint8', Uint8Array.of(128), []);
    // A bounded min-heap would be tidier; a threshold-and-compact list is as fast for n ≪ rows.
    let best: Array<{ row: number; score: number }> = [];
    let floor = -Infinity;
    for (let b = 0; b < this.tensors.length; b += 1) {
      const out = await session.run({ q: qTensor, m: this.tensors[b] as ort.Tensor, zp });
      const scores = out.s?.data as Int32Array;
      const base = b * BLOCK;
      // The scores of the block as it was scanned: a refresh may widen it while the scan awaits.
      const end = Math.min(scores.length, this.ids.length - base);
      for (let col = 0; col < end; col += 1) {
        const row = base + col;
        const score = (scores[col] as number) * (this.scales[row] as number);
        if (score <= floor || this.ids[row] === null) continue;
        best.push({ row, score });
        if (best.length >= n * 2) {
          best.sort((x, y) => y.score - x.score);
          best = best.slice(0, n);
          floor = best[n - 1]?.score ?? -Infinity;
        }
      }
    }
    best.sort((x, y) => y.score - x.score);
    return best.slice(0, n).map((x) => x.row);
  }
}
