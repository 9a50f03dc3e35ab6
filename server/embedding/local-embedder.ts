import fs from 'node:fs';
import path from 'node:path';
import * as ort from 'onnxruntime-node';
import { Tokenizer } from '@huggingface/tokenizers';
import type { EncoderSpec } from './model-spec';

/**
 * A sentence-embedding model run in this process by onnxruntime (CPU, one intra-op thread: on two shared cores a
 * second thread made a single question slower). BERT-style: token ids, attention mask and token types in, the last
 * hidden state out, pooled (mean over real tokens, or the [CLS] token) and normalized to length 1.
 *
 * onnxruntime-node runs a session synchronously on the calling thread, so this class is used where a few
 * milliseconds are fine (a question) and inside the embedding thread (embed-thread.ts) for bulk work.
 */
export type EmbedKind = 'query' | 'passage';

/**
 * Tokens per inference call (texts × the longest one's length; texts are sorted by length, so little is padding).
 * bench:embed measured one 150-token chunk per call ~1.7× faster per CPU-second than 16 per call on these 2-core
 * machines (a batch's activations leave the core's cache), so a batch stays around this size: short texts such as
 * library entries still go several at a time.
 */
const TOKENS_PER_CALL = 256;
/** Characters looked at per text: far more than maxTokens ever covers, so cutting here only saves tokenizer time. */
const CHARS_PER_TOKEN_MAX = 10;

export class LocalEmbedder {
  private constructor(
    readonly spec: EncoderSpec,
    private readonly session: ort.InferenceSession,
    private readonly tokenizer: Tokenizer,
    private readonly cls: number,
    private readonly sep: number,
  ) {}

  /** Loads the model files from `dir` (verified beforehand by the caller). */
  static async load(dir: string, spec: EncoderSpec, opts: { threads?: number } = {}): Promise<LocalEmbedder> {
    const tokenizerJson: unknown = JSON.parse(fs.readFileSync(path.join(dir, 'tokenizer.json'), 'utf8'));
    const tokenizer = new Tokenizer(tokenizerJson as object, {});
    const session = await ort.InferenceSession.create(path.join(dir, 'model.onnx'), {
      intraOpNumThreads: opts.threads ?? 1,
      interOpNumThreads: 1,
      graphOptimizationLevel: 'all',
    });
    const cls = tokenizer.token_to_id('[CLS]');
    const sep = tokenizer.token_to_id('[SEP]');
    if (cls === undefined || sep === undefined) throw new Error('the tokenizer has no [CLS]/[SEP] tokens');
    if (!session.inputNames.includes('input_ids') || !session.inputNames.includes('attention_mask'))
      throw new Error(`the model's inputs are ${session.inputNames.join(', ')}, not a BERT encoder's`);
    return new LocalEmbedder(spec, session, tokenizer, cls, sep);
  }

  /** Frees the model's memory (~80 MB for a MiniLM); the embedder is not usable afterwards. */
  async release(): Promise<void> {
    await this.session.release();
  }

  /** Token ids of one text: [CLS] … [SEP], cut to the model's maxTokens. */
  tokenize(text: string, kind: EmbedKind): number[] {
    const prefix = kind === 'query' ? this.spec.queryPrefix : this.spec.passagePrefix;
    const clean = `${prefix}${text}`.slice(0, this.spec.maxTokens * CHARS_PER_TOKEN_MAX).trim();
    let ids = clean ? this.tokenizer.encode(clean).ids : [this.cls, this.sep];
    if (ids[0] !== this.cls) ids = [this.cls, ...ids, this.sep];
    if (ids.length > this.spec.maxTokens) ids = [...ids.slice(0, this.spec.maxTokens - 1), this.sep];
    return ids;
  }

  /** One normalized vector per text, in order. */
  async embed(texts: string[], kind: EmbedKind = 'passage'): Promise<Float32Array[]> {
    const tokenized = texts.map((t, i) => ({ i, ids: this.tokenize(t, kind) }));
    tokenized.sort((a, b) => a.ids.length - b.ids.length);
    const out = new Array<Float32Array>(texts.length);
    for (let start = 0; start < tokenized.length;) {
      let end = start + 1;
      // Sorted ascending, so the last text of a batch is its longest. A question is always embedded alone: padded
      // beside others its vector moves in the last digits, and a question must get the same vector, so the same
      // answer and confidence, whether Ask embeds it or an assessment embeds it with others (embedQueries).
      while (
        kind === 'passage' &&
        end < tokenized.length &&
        (end - start + 1) * (tokenized[end]?.ids.length ?? 0) <= TOKENS_PER_CALL
      )
        end++;
      const batch = tokenized.slice(start, end);
      const vectors = await this.run(batch.map((b) => b.ids));
      batch.forEach((b, j) => (out[b.i] = vectors[j] as Float32Array));
      start = end;
    }
    return out;
  }

  private async run(batch: number[][]): Promise<Float32Array[]> {
    const n = batch.length;
    const len = Math.max(...batch.map((ids) => ids.length));
    const ids = new BigInt64Array(n * len);
    const mask = new BigInt64Array(n * len);
    batch.forEach((row, i) =>
      row.forEach((id, j) => {
        ids[i * len + j] = BigInt(id);
        mask[i * len + j] = 1n;
      }),
    );
    const feeds: Record<string, ort.Tensor> = {
      input_ids: new ort.Tensor('int64', ids, [n, len]),
      attention_mask: new ort.Tensor('int64', mask, [n, len]),
    };
    if (this.session.inputNames.includes('token_type_ids'))
      feeds.token_type_ids = new ort.Tensor('int64', new BigInt64Array(n * len), [n, len]);
    const result = await this.session.run(feeds);
    const hidden = result[this.session.outputNames[0] ?? ''];
    if (!hidden || hidden.dims.length !== 3 || hidden.dims[2] !== this.spec.dimension)
      throw new Error(
        `the model gave an output of shape [${hidden?.dims.join(', ') ?? ''}], expected […, ${this.spec.dimension}]`,
      );
    const data = hidden.data as Float32Array;
    const dim = this.spec.dimension;
    return batch.map((row, i) => {
      const v = new Float32Array(dim);
      if (this.spec.pooling === 'cls') {
        v.set(data.subarray(i * len * dim, i * len * dim + dim));
      } else {
        for (let j = 0; j < row.length; j += 1) {
          const at = (i * len + j) * dim;
          for (let d = 0; d < dim; d += 1) v[d] = (v[d] as number) + (data[at + d] as number);
        }
      }
      let norm = 0;
      for (let d = 0; d < dim; d += 1) norm += (v[d] as number) ** 2;
      norm = Math.sqrt(norm);
      if (!(norm > 0) || !Number.isFinite(norm)) throw new Error('the model gave a zero or non-finite vector');
      for (let d = 0; d < dim; d += 1) v[d] = (v[d] as number) / norm;
      return v;
    });
  }
}
