import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { onnxModel } from '../../server/embedding/onnx-graph';
import type { ModelSpec } from '../../server/embedding/model-spec';

/**
 * A BERT-shaped stand-in the tests build in a millisecond: a WordPiece tokenizer.json over a dozen words and an
 * ONNX graph whose "last hidden state" is each token's row of a fixed table (Gather), so pooled vectors can be
 * computed by hand. It has the real model's inputs (input_ids, attention_mask, token_type_ids) and output name.
 */
export const TINY_VOCAB = [
  '[PAD]',
  '[UNK]',
  '[CLS]',
  '[SEP]',
  'backup',
  'retention',
  'encrypt',
  'data',
  'rest',
  'password',
  'policy',
  '##s',
  '?',
] as const;
export const TINY_DIMENSION = 4;

/** Row i of the table: token i's vector. [CLS]/[SEP] carry a small constant so every text has a direction. */
export function tinyRow(i: number): number[] {
  if (i === 2 || i === 3) return [0.1, 0.1, 0.1, 0.1];
  return [i % 4 === 0 ? 1 : 0, i % 4 === 1 ? 1 : 0, i % 4 === 2 ? 1 : 0, i % 4 === 3 ? 1 : 0].map(
    (v) => v * (1 + i / 10),
  );
}

function tokenizerJson() {
  const vocab = Object.fromEntries(TINY_VOCAB.map((t, i) => [t, i]));
  const special = (content: string, id: number) => ({
    id,
    content,
    single_word: false,
    lstrip: false,
    rstrip: false,
    normalized: false,
    special: true,
  });
  return {
    version: '1.0',
    truncation: null,
    padding: null,
    added_tokens: [special('[PAD]', 0), special('[UNK]', 1), special('[CLS]', 2), special('[SEP]', 3)],
    normalizer: {
      type: 'BertNormalizer',
      clean_text: true,
      handle_chinese_chars: true,
      strip_accents: null,
      lowercase: true,
    },
    pre_tokenizer: { type: 'BertPreTokenizer' },
    post_processor: {
      type: 'TemplateProcessing',
      single: [
        { SpecialToken: { id: '[CLS]', type_id: 0 } },
        { Sequence: { id: 'A', type_id: 0 } },
        { SpecialToken: { id: '[SEP]', type_id: 0 } },
      ],
      pair: [],
      special_tokens: {
        '[CLS]': { id: '[CLS]', ids: [2], tokens: ['[CLS]'] },
        '[SEP]': { id: '[SEP]', ids: [3], tokens: ['[SEP]'] },
      },
    },
    decoder: { type: 'WordPiece', prefix: '##', cleanup: true },
    model: {
      type: 'WordPiece',
      unk_token: '[UNK]',
      continuing_subword_prefix: '##',
      max_input_chars_per_word: 100,
      vocab,
    },
  };
}

function modelBytes(): Uint8Array {
  return onnxModel({
    name: 'tiny-bert',
    nodes: [{ op: 'Gather', inputs: ['table', 'input_ids'], outputs: ['last_hidden_state'] }],
    initializers: [
      {
        name: 'table',
        type: 'float',
        dims: [TINY_VOCAB.length, TINY_DIMENSION],
        values: TINY_VOCAB.flatMap((_, i) => tinyRow(i)),
      },
    ],
    inputs: [
      { name: 'input_ids', type: 'int64', dims: ['batch', 'tokens'] },
      { name: 'attention_mask', type: 'int64', dims: ['batch', 'tokens'] },
      { name: 'token_type_ids', type: 'int64', dims: ['batch', 'tokens'] },
    ],
    outputs: [{ name: 'last_hidden_state', type: 'float', dims: ['batch', 'tokens', TINY_DIMENSION] }],
  });
}

const sha256 = (b: Uint8Array | string) => crypto.createHash('sha256').update(b).digest('hex');

/** Writes the tiny model into `modelsDir/<id>/` and returns its spec (with the files' real checksums). */
export function writeTinyModel(modelsDir: string, opts: { id?: string; maxTokens?: number } = {}): ModelSpec {
  const id = opts.id ?? 'tiny-bert';
  const model = modelBytes();
  const tokenizer = JSON.stringify(tokenizerJson());
  const dir = path.join(modelsDir, id);
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(path.join(dir, 'model.onnx'), model);
  fs.writeFileSync(path.join(dir, 'tokenizer.json'), tokenizer);
  return {
    id,
    title: 'tiny test model',
    licence: 'test',
    dimension: TINY_DIMENSION,
    pooling: 'mean',
    maxTokens: opts.maxTokens ?? 16,
    queryPrefix: '',
    passagePrefix: '',
    files: {
      'model.onnx': {
        sha256: sha256(model),
        bytes: model.length,
        huggingface: 'x/y/model.onnx',
        jarEntry: 'model.onnx',
      },
      'tokenizer.json': {
        sha256: sha256(tokenizer),
        bytes: Buffer.byteLength(tokenizer),
        huggingface: 'x/y/tokenizer.json',
        jarEntry: 'tokenizer.json',
      },
    },
    maven: { group: 'x', artifact: 'y', version: '1', sha256: '0'.repeat(64), bytes: 1 },
  };
}
