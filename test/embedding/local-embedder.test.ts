import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LocalEmbedder } from '../../server/embedding/local-embedder';
import { loadBuiltInEmbedder, loadLocalEmbedder } from '../../server/embedding/embedder';
import type { ModelSpec } from '../../server/embedding/model-spec';
import { VectorTable } from '../../server/embedding/vector-table';
import { TINY_DIMENSION, TINY_VOCAB, tinyRow, writeTinyModel } from '../helpers/tiny-model';

/** The built-in provider on a tiny BERT-shaped model the test writes itself (the real one: semantic-engine.test.ts). */

let modelsDir: string;
let spec: ModelSpec;
let embedder: LocalEmbedder;
beforeAll(async () => {
  modelsDir = fs.mkdtempSync(path.join(os.tmpdir(), 'verity-models-'));
  spec = writeTinyModel(modelsDir);
  embedder = await LocalEmbedder.load(path.join(modelsDir, spec.id), spec);
});
afterAll(() => fs.rmSync(modelsDir, { recursive: true, force: true }));

/** Mean of the table rows of the given token ids, normalized: what mean pooling must give. */
function expected(ids: number[]): number[] {
  const sum = new Array<number>(TINY_DIMENSION).fill(0);
  for (const id of ids) tinyRow(id).forEach((v, d) => (sum[d] = (sum[d] ?? 0) + v));
  const norm = Math.hypot(...sum);
  return sum.map((v) => v / norm);
}
const id = (token: (typeof TINY_VOCAB)[number]) => TINY_VOCAB.indexOf(token);

describe('local embedding provider', () => {
  it('tokenizes with the model tokenizer, wraps in [CLS]/[SEP] and mean-pools to a unit vector', async () => {
    expect(embedder.tokenize('Backup retention?', 'query')).toEqual([
      id('[CLS]'),
      id('backup'),
      id('retention'),
      id('?'),
      id('[SEP]'),
    ]);
    const [v] = await embedder.embed(['Backup retention?']);
    const want = expected([id('[CLS]'), id('backup'), id('retention'), id('?'), id('[SEP]')]);
    [...(v ?? [])].forEach((x, d) => expect(x).toBeCloseTo(want[d] ?? NaN, 5));
  });

  it('returns vectors in input order whatever the batching by length, for many texts at once', async () => {
    const texts = Array.from({ length: 40 }, (_, i) =>
      i % 2 ? 'encrypt data at rest' : 'password ' + 'policy '.repeat(i % 7),
    );
    const vectors = await embedder.embed(texts);
    for (const [i, t] of texts.entries()) {
      const [alone] = await embedder.embed([t]);
      expect([...(vectors[i] ?? [])]).toEqual([...(alone ?? [])]);
    }
  });

  it('cuts long texts to the model limit, keeps [SEP] last, and embeds empty text, unknown words, emoji and CJK', async () => {
    const ids = embedder.tokenize('backup '.repeat(5000), 'passage');
    expect(ids).toHaveLength(spec.maxTokens);
    expect(ids.at(-1)).toBe(id('[SEP]'));
    const vectors = await embedder.embed([
      '',
      '🙂🙂',
      '备份保留多久？',
      'Qu’est-ce que la rétention?',
      'x'.repeat(10_000),
    ]);
    for (const v of vectors) {
      expect(v).toHaveLength(TINY_DIMENSION);
      expect(Math.hypot(...v)).toBeCloseTo(1, 5);
    }
  });

  it('embeds batches in its own thread with the same result as in process', async () => {
    const loaded = await loadLocalEmbedder(modelsDir, pino({ level: 'silent' }), spec);
    if (!loaded) throw new Error('the tiny model did not load');
    try {
      expect(loaded.model).toBe(`local:${spec.id}`);
      const texts = ['backup retention', 'encrypt data at rest', 'password policy'];
      const threaded = await loaded.embedPassages(texts);
      const inProcess = await embedder.embed(texts, 'passage');
      threaded.forEach((v, i) => Array.from(v).forEach((x, d) => expect(x).toBeCloseTo(inProcess[i]?.[d] ?? NaN, 6)));
      expect(Array.from(await loaded.embedQuery('backup retention'))).toEqual([...(inProcess[0] ?? [])]);
      // Questions of several organizations at once, more than there are question threads: each still gets its own
      // vector (the threads are shared in turns, one organization holding at most one of them).
      const asked = ['backup retention', 'encrypt data at rest', 'password policy', 'backup retention'];
      const queries = await embedder.embed(asked, 'query');
      const many = await Promise.all(asked.map((t, i) => loaded.embedQuery(t, { key: `org-${i % 2}` })));
      many.forEach((v, i) => expect(Array.from(v)).toEqual([...(queries[i] ?? [])]));
    } finally {
      await loaded.close();
    }
  });
});

describe('a missing, truncated or tampered model', () => {
  type Line = { level: number; msg: string };
  const capture = () => {
    const lines: Line[] = [];
    return { lines, log: pino({ level: 'info' }, { write: (l: string) => void lines.push(JSON.parse(l) as Line) }) };
  };

  it('is refused with one log line naming the file, and no embedder (the lexical engine answers)', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'verity-models-bad-'));
    try {
      const good = writeTinyModel(dir, { id: 'm' });
      const file = path.join(dir, 'm', 'model.onnx');
      const bytes = fs.readFileSync(file);

      fs.writeFileSync(file, bytes.subarray(0, bytes.length - 10));
      let c = capture();
      expect(await loadLocalEmbedder(dir, c.log, good)).toBeNull();
      expect(c.lines.filter((l) => l.level >= 40)).toHaveLength(1);
      expect(c.lines[0]?.msg).toMatch(/model\.onnx/);
      expect(c.lines[0]?.msg).toMatch(/lexical engine/);

      const tampered = Buffer.from(bytes);
      tampered[tampered.length - 1] = (tampered.at(-1) ?? 0) ^ 0xff;
      fs.writeFileSync(file, tampered);
      c = capture();
      expect(await loadLocalEmbedder(dir, c.log, good)).toBeNull();
      expect(c.lines[0]?.msg).toMatch(/model\.onnx/);

      fs.rmSync(file);
      c = capture();
      expect(await loadLocalEmbedder(dir, c.log, good)).toBeNull();
      expect(c.lines[0]?.msg).toMatch(/model\.onnx/);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('that passes its checksum but is not a BERT encoder is refused too, never a crash', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'verity-models-odd-'));
    try {
      const good = writeTinyModel(dir, { id: 'm' });
      const c = capture();
      // Pinned to a file whose bytes are not an ONNX graph at all.
      const file = path.join(dir, 'm', 'model.onnx');
      fs.writeFileSync(file, 'not an onnx file');
      const crypto = await import('node:crypto');
      const odd = {
        ...good,
        files: {
          ...good.files,
          'model.onnx': {
            ...good.files['model.onnx'],
            sha256: crypto.createHash('sha256').update('not an onnx file').digest('hex'),
            bytes: 16,
          },
        },
      };
      expect(await loadLocalEmbedder(dir, c.log, odd)).toBeNull();
      expect(c.lines.at(-1)?.msg).toMatch(/could not be loaded/);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('int8 vector table', () => {
  const random = (seed: number) => {
    let s = seed;
    return () => {
      s = (s * 1103515245 + 12345) % 2147483648;
      return s / 2147483648 - 0.5;
    };
  };

  it('finds the same nearest rows as an exact float scan, with similarities within 0.01, on the onnxruntime path', async () => {
    const dim = 64;
    const rnd = random(7);
    const rows = Array.from({ length: 6000 }, () => Array.from({ length: dim }, rnd));
    const table = new VectorTable(dim);
    rows.forEach((v, i) => table.set(`r${i}`, `k${i}`, v));
    const unit = (v: number[]) => {
      const n = Math.hypot(...v);
      return v.map((x) => x / n);
    };
    for (let trial = 0; trial < 5; trial += 1) {
      const q = Float32Array.from(unit(Array.from({ length: dim }, rnd)));
      const exact = rows
        .map((v, i) => ({ id: `r${i}`, s: unit(v).reduce((acc, x, d) => acc + x * (q[d] ?? 0), 0) }))
        .sort((a, b) => b.s - a.s)
        .slice(0, 10);
      const hits = await table.nearest(q, 10);
      // Near-ties may swap places (int8 storage); the set and the similarities must hold.
      expect(hits.map((h) => h.id).sort()).toEqual(exact.map((e) => e.id).sort());
      hits.forEach((h, i) => expect(Math.abs(h.similarity - (exact[i]?.s ?? 0))).toBeLessThan(0.01));
    }
  });

  it('keeps rows right as blocks widen and a second block begins', async () => {
    // Enough dimensions that no two random rows are near-duplicates within int8's rounding; a generator whose period
    // is far longer than the rows (random() above repeats within ~30,000 draws of 32).
    const dim = 32;
    let state = 11;
    const rnd = () => {
      state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
      return state / 4294967296 - 0.5;
    };
    const table = new VectorTable(dim);
    const rows = Array.from({ length: 33_000 }, () => Array.from({ length: dim }, rnd));
    rows.forEach((v, i) => table.set(`r${i}`, `k${i}`, v));
    // Each row, wherever it sits (first block, widened several times, or the second), is its own nearest row.
    for (const i of [0, 1023, 1024, 5000, 32_767, 32_768, 32_999]) {
      const v = rows[i] ?? [];
      const n = Math.hypot(...v);
      const hits = await table.nearest(
        Float32Array.from(v, (x) => x / n),
        1,
      );
      expect(hits[0]?.id, `row ${i}`).toBe(`r${i}`);
      expect(hits[0]?.similarity).toBeGreaterThan(0.99);
    }
  });

  it('replaces a row in place, forgets deleted rows and reuses their slots', async () => {
    const table = new VectorTable(2);
    table.set('a', '1', [1, 0]);
    table.set('b', '1', [0, 1]);
    table.set('a', '2', [0, 1]);
    expect(table.key('a')).toBe('2');
    expect(table.size).toBe(2);
    table.delete('b');
    table.set('c', '1', [1, 0]);
    expect(table.size).toBe(2);
    expect((await table.nearest(Float32Array.of(1, 0), 1))[0]?.id).toBe('c');
    expect(table.heldIds().sort()).toEqual(['a', 'c']);
  });
});

describe("Verity's own model, with the published one as its fallback", () => {
  type Line = { level: number; msg: string };
  const capture = () => {
    const lines: Line[] = [];
    return { lines, log: pino({ level: 'info' }, { write: (l: string) => void lines.push(JSON.parse(l) as Line) }) };
  };
  let own: string;
  let published: string;
  beforeAll(() => {
    own = fs.mkdtempSync(path.join(os.tmpdir(), 'verity-own-'));
    published = fs.mkdtempSync(path.join(os.tmpdir(), 'verity-published-'));
  });
  afterAll(() => {
    for (const dir of [own, published]) fs.rmSync(dir, { recursive: true, force: true });
  });
  const models = () => ({
    own: { ...writeTinyModel(own, { id: 'own' }), card: 'MODEL_CARD.md' },
    fallback: writeTinyModel(published, { id: 'published' }),
  });

  it('is used when its files are there and verified, with no notice', async () => {
    const c = capture();
    const loaded = await loadBuiltInEmbedder({ ownModelsDir: own, modelsDir: published }, c.log, models());
    try {
      expect(loaded?.model).toBe('local:own');
      expect(loaded?.notice).toBeNull();
      expect(c.lines.filter((l) => l.level >= 40)).toEqual([]);
    } finally {
      await loaded?.close();
    }
  });

  it('when tampered with, gives way to the published model with a notice naming it and the fix', async () => {
    const specs = models();
    const file = path.join(own, 'own', 'model.onnx');
    const bytes = fs.readFileSync(file);
    bytes[bytes.length - 1] = (bytes.at(-1) ?? 0) ^ 0xff;
    fs.writeFileSync(file, bytes);
    const c = capture();
    const loaded = await loadBuiltInEmbedder({ ownModelsDir: own, modelsDir: published }, c.log, specs);
    try {
      expect(loaded?.model).toBe('local:published');
      expect(loaded?.notice).toMatch(/own embedding model \(own\).*published.*restart/);
      const warnings = c.lines.filter((l) => l.level >= 40);
      expect(warnings).toHaveLength(1);
      expect(warnings[0]?.msg).toMatch(/model\.onnx has a checksum mismatch/);
      // Still embeds: the fallback answers by meaning.
      expect(Array.from(await (loaded ?? { embedQuery: () => Promise.resolve([]) }).embedQuery('backup'))).toHaveLength(
        TINY_DIMENSION,
      );
    } finally {
      await loaded?.close();
    }
  });

  it('and without either model there is no embedder (the lexical engine answers)', async () => {
    const specs = models();
    fs.rmSync(path.join(own, 'own', 'tokenizer.json'));
    fs.rmSync(path.join(published, 'published', 'model.onnx'));
    const c = capture();
    expect(await loadBuiltInEmbedder({ ownModelsDir: own, modelsDir: published }, c.log, specs)).toBeNull();
    const warnings = c.lines.filter((l) => l.level >= 40).map((l) => l.msg);
    expect(warnings).toHaveLength(2);
    expect(warnings[0]).toMatch(/tokenizer\.json is missing/);
    expect(warnings[1]).toMatch(/model\.onnx is missing.*lexical engine/);
  });
});
