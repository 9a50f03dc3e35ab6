import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../server/config';
import { LlmError, parseChat, parseEmbeddings } from '../server/llm/client';
import {
  buildGroundedPrompt,
  findBanned,
  parseGroundedReply,
  selectContext,
  withoutBannedSentences,
} from '../server/engine/ranking/generate-llm';
import { normalize } from '../server/engine/retrieval/vector-index';
import { VectorTable } from '../server/embedding/vector-table';
import type { ChunkCandidate } from '../server/engine/retrieval/retrieve';
import { promptParts } from './helpers/fake-openai';

/** The pure parts of the LLM path: configuration, prompt, reply parsing, banned tokens, vectors. */
function syncLlmError(fn: () => unknown): LlmError {
  try {
    fn();
  } catch (err) {
    if (err instanceof LlmError) return err;
    throw err;
  }
  throw new Error('expected an LlmError');
}

describe('configuration', () => {
  const base = { DATA_DIR: '/tmp/verity-config-test' };
  const error = (env: Record<string, string>) => {
    try {
      loadConfig({ ...base, ...env });
    } catch (err) {
      return err instanceof Error ? err.message : String(err);
    }
    return '';
  };

  it('has no LLM without LLM_BASE_URL, and the documented defaults with one', () => {
    expect(loadConfig(base).llm).toBeNull();
    expect(loadConfig({ ...base, LLM_BASE_URL: '', EMBEDDING_MODEL: '' }).llm).toBeNull();
    expect(loadConfig({ ...base, LLM_BASE_URL: 'http://127.0.0.1:11434/v1/' }).llm).toEqual({
      baseUrl: 'http://127.0.0.1:11434/v1',
      apiKey: undefined,
      model: 'gpt-4o-mini',
      embeddingModel: null,
      timeoutMs: 20_000,
      maxRetries: 2,
    });
    expect(
      loadConfig({
        ...base,
        LLM_BASE_URL: 'https://api.openai.com/v1',
        LLM_API_KEY: 'sk-x',
        LLM_MODEL: 'gpt-4.1',
        EMBEDDING_MODEL: 'text-embedding-3-small',
        LLM_TIMEOUT_MS: '5000',
        LLM_MAX_RETRIES: '0',
      }).llm,
    ).toMatchObject({
      apiKey: 'sk-x',
      model: 'gpt-4.1',
      embeddingModel: 'text-embedding-3-small',
      timeoutMs: 5000,
      maxRetries: 0,
    });
  });

  it('refuses bad values with a sentence naming the variable', () => {
    expect(error({ LLM_BASE_URL: 'localhost:11434' })).toContain('LLM_BASE_URL must be the http(s) URL');
    expect(error({ LLM_BASE_URL: 'ftp://models.example.com/v1' })).toContain('LLM_BASE_URL must be the http(s) URL');
    expect(error({ EMBEDDING_MODEL: 'nomic-embed-text' })).toContain('EMBEDDING_MODEL: needs LLM_BASE_URL');
    expect(error({ LLM_API_KEY: 'sk-x' })).toContain('LLM_API_KEY: needs LLM_BASE_URL');
    const url = { LLM_BASE_URL: 'http://127.0.0.1:11434/v1' };
    expect(error({ ...url, LLM_TIMEOUT_MS: 'soon' })).toContain('LLM_TIMEOUT_MS must be a number of milliseconds');
    expect(error({ ...url, LLM_TIMEOUT_MS: '10' })).toContain('LLM_TIMEOUT_MS must be at least 100');
    expect(error({ ...url, LLM_TIMEOUT_MS: '1.5' })).toContain('LLM_TIMEOUT_MS must be a whole number');
    expect(error({ ...url, LLM_MAX_RETRIES: '11' })).toContain('LLM_MAX_RETRIES must be between 0 and 10');
    expect(error({ ...url, LLM_MAX_RETRIES: '-1' })).toContain('LLM_MAX_RETRIES must be between 0 and 10');
    expect(error({ ...url, LLM_MAX_RETRIES: 'two' })).toContain('LLM_MAX_RETRIES must be a number');
  });
});

describe('parsing the model’s reply', () => {
  it('takes the fixed JSON shape, strips inline markers and keeps only cited numbers it was given', () => {
    expect(
      parseGroundedReply(
        '{"supported": true, "answer": "Yes. Logs are kept 400 days [1][3].", "sources": [3, 1, 3, 9, 0]}',
        3,
      ),
    ).toEqual({ supported: true, answer: 'Yes. Logs are kept 400 days.', cited: [2, 0] });
    expect(parseGroundedReply('{"supported": false, "answer": null}', 3)).toEqual({ supported: false });
  });

  it('is lenient with the forms models actually produce', () => {
    const fenced = '```json\n{"supported": "true", "answer": "We do [2, 3].", "sources": ["[2]", "3"]}\n```';
    expect(parseGroundedReply(fenced, 3)).toEqual({ supported: true, answer: 'We do.', cited: [1, 2] });
    expect(parseGroundedReply('Here you go: {"supported": false}', 2)).toEqual({ supported: false });
  });

  it('refuses garbage with a reason, never throws anything else', () => {
    const reasons = [
      'not json at all',
      '{"answer": "x"}',
      '[1, 2]',
      '{"supported": "maybe"}',
      '{"supported": true, "answer": "x", "sources": []}',
      '{"supported": true, "answer": "x", "sources": [7]}',
      `{"supported": true, "answer": "${'x'.repeat(5000)}", "sources": [1]}`,
      '{"supported": true, "answer": "  [1] ", "sources": [1]}',
      '{',
    ].map((content) => syncLlmError(() => parseGroundedReply(content, 2)).reason);
    expect(reasons).toEqual([
      'garbage',
      'garbage',
      'garbage',
      'garbage',
      'garbage',
      'garbage',
      'garbage',
      'empty',
      'garbage',
    ]);
    fc.assert(
      fc.property(fc.string(), (content) => {
        try {
          parseGroundedReply(content, 3);
        } catch (err) {
          return err instanceof LlmError;
        }
        return true;
      }),
    );
  });

  it('checks chat and embeddings replies', () => {
    expect(parseChat({ choices: [{ message: { content: 'hi' } }] })).toBe('hi');
    expect(syncLlmError(() => parseChat({ choices: [] })).reason).toBe('garbage');
    expect(syncLlmError(() => parseChat('<html>')).reason).toBe('garbage');
    expect(syncLlmError(() => parseChat({ choices: [{ message: { content: null } }] })).reason).toBe('empty');

    const v = (x: number) => ({ embedding: [x, 1, 0] });
    expect(parseEmbeddings({ data: [v(1), v(2)] }, 2, null)).toEqual([
      [1, 1, 0],
      [2, 1, 0],
    ]);
    expect(
      parseEmbeddings(
        {
          data: [
            { index: 1, ...v(2) },
            { index: 0, ...v(1) },
          ],
        },
        2,
        3,
      ),
    ).toEqual([
      [1, 1, 0],
      [2, 1, 0],
    ]);
    const bad: Array<[unknown, number, number | null, RegExp]> = [
      [{ data: [v(1)] }, 2, null, /1 vectors for 2 texts/],
      [{ data: [v(1), { embedding: [1, 2] }] }, 2, null, /2-dimension vector, expected 3/],
      [{ data: [v(1)] }, 1, 4, /3-dimension vector, expected 4/],
      [{ data: [{ embedding: [0, 0, 0] }] }, 1, null, /zero vector/],
      [{ data: [{ embedding: ['1', '2'] }] }, 1, null, /embeddings reply/],
      [{ data: [{ embedding: [] }] }, 1, null, /empty vector/],
      [
        {
          data: [
            { index: 0, ...v(1) },
            { index: 0, ...v(2) },
          ],
        },
        2,
        null,
        /wrong indexes/,
      ],
      [{ vectors: [] }, 0, null, /embeddings reply/],
    ];
    for (const [reply, count, dim, message] of bad) {
      const err = syncLlmError(() => parseEmbeddings(reply, count, dim));
      expect(err.reason).toBe('garbage');
      expect(err.message).toMatch(message);
    }
  });
});

describe('banned tokens', () => {
  it('match as plain text ignoring case, never as patterns', () => {
    expect(findBanned('We store logs in aXbbb vaults.', ['a.b*'])).toBeNull();
    expect(findBanned('We store logs on A.B* media.', ['a.b*'])).toBe('a.b*');
    expect(findBanned('Use C++ and (x)', ['c++', '(X)'])).toBe('c++');
    expect(findBanned('anything', ['   '])).toBeNull();
  });

  it('remove whole sentences, and leave a clean text untouched', () => {
    const text = 'First fact [x].  Second is WRITE-once.\n\nThird one stays. Fourth guarantees it.';
    expect(withoutBannedSentences(text, ['write-ONCE', 'guarantee'])).toBe('First fact [x].\n\nThird one stays.');
    expect(withoutBannedSentences(text, ['absent'])).toBe(text);
  });

  it('never survive, whatever the text and tokens (property)', () => {
    // Text without any banned token comes back exactly as it was.
    fc.assert(
      fc.property(
        fc.string(),
        fc.array(fc.string({ minLength: 1, maxLength: 6 }), { maxLength: 4 }),
        (text, banned) => {
          fc.pre(findBanned(text, banned) === null);
          return withoutBannedSentences(text, banned) === text;
        },
      ),
    );
    // Sentences with banned tokens (regex characters included) never survive.
    fc.assert(
      fc.property(
        fc.array(fc.constantFrom('a.b*', '(x)', 'C++', '[1]', 'foo|bar', '^$'), { minLength: 1, maxLength: 3 }),
        fc.array(
          fc.constantFrom('Logs are kept.', 'We use a.B* here.', 'X (X) y.', 'c++ is fine.', 'Plain text.', 'FOO|BAR!'),
          {
            maxLength: 8,
          },
        ),
        (banned, sentences) => findBanned(withoutBannedSentences(sentences.join(' '), banned), banned) === null,
      ),
    );
  });
});

const chunk = (id: string, over: Partial<ChunkCandidate> = {}): ChunkCandidate => ({
  id,
  documentId: `doc-${id}`,
  documentName: `${id}.pdf`,
  page: 3,
  section: 'Access',
  text: `Text of ${id}.`,
  rank: 0.5,
  ...over,
});

describe('the prompt', () => {
  it('numbers the excerpts with where they come from, and carries the brand voice', () => {
    const messages = buildGroundedPrompt('Do you use MFA?', [chunk('a'), chunk('b', { page: null, section: null })], {
      tone: 'authoritative',
      languageRules: 'Use British spelling.',
      boilerplate: 'Call us Acme.',
      bannedTokens: ['"quoted"', 'x'],
    });
    expect(messages.map((m) => m.role)).toEqual(['system', 'user']);
    const [system, user] = messages.map((m) => m.content) as [string, string];
    expect(system).toContain('Tone: authoritative.');
    expect(system).toContain('Language rules:\nUse British spelling.');
    expect(system).toContain('Content guidelines:\nCall us Acme.');
    expect(system).toContain('"\\"quoted\\"", "x"');
    expect(system).toContain('begin the answer with "Yes" or "No"');
    expect(user).toBe(
      'Question: Do you use MFA?\n\nExcerpts:\n\n[1] (document "a.pdf", page 3, section "Access")\nText of a.\n\n[2] (document "b.pdf")\nText of b.',
    );
    expect(promptParts(messages).excerpts).toEqual(
      new Map([
        [1, 'Text of a.'],
        [2, 'Text of b.'],
      ]),
    );
  });

  it('shows the best chunks by full-text order and embedding order fused, at most six', () => {
    const lexical = ['l1', 'l2', 'l3', 'l4', 'l5', 'l6', 'l7'].map((id) => chunk(id));
    const vectorOnly = chunk('v1', { rank: 0, vector: 0.9 });
    const both = { ...chunk('l7'), vector: 0.95 };
    const picked = selectContext([...lexical.slice(0, 6), both, vectorOnly]).map((c) => c.id);
    expect(picked).toHaveLength(6);
    expect(picked[0]).toBe('l7'); // found both ways
    expect(picked).toContain('v1');
    expect(picked).toContain('l1');
    expect(selectContext([chunk('a'), chunk('a')]).map((c) => c.id)).toEqual(['a']);
  });
});

describe('vectors', () => {
  it('normalizes, finds the top k by cosine, refuses other dimensions and zero vectors', async () => {
    expect(normalize([0, 0])).toBeNull();
    expect([...(normalize([3, 4]) ?? [])].map((x) => Math.round(x * 10) / 10)).toEqual([0.6, 0.8]);
    const table = new VectorTable(2);
    expect(table.set('a', 'a', [1, 0])).toBe(true);
    expect(table.set('b', 'b', [0.7, 0.7])).toBe(true);
    expect(table.set('c', 'c', [0, 1])).toBe(true);
    expect(table.set('d', 'd', [1, 0, 0])).toBe(false);
    expect(table.set('e', 'e', [0, 0])).toBe(false);
    const query = normalize([1, 0.1]) ?? new Float32Array();
    const hits = await table.nearest(query, 2);
    expect(hits.map((h) => h.id)).toEqual(['a', 'b']);
    expect(hits[0]?.similarity).toBeGreaterThan(0.99);
    expect(await table.nearest(query, 0)).toEqual([]);
    table.delete('a');
    expect((await table.nearest(query, 1)).map((h) => h.id)).toEqual(['b']);
    expect(table.similarity('a', query)).toBeUndefined();
  });
});
