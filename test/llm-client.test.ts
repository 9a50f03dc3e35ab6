import pino from 'pino';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { LlmError, createLlmClient, type LlmClient } from '../server/llm/client';
import { freePort } from './helpers/processes';
import { fakeEmbedding, startFakeOpenAI, type FakeOpenAI } from './helpers/fake-openai';

/** The LLM client over real HTTP, against the local OpenAI-compatible server of the tests. */

const silent = pino({ level: 'silent' });

/** The LlmError a promise rejects with (fails the test if it resolves or throws something else). */
async function llmError(p: Promise<unknown>): Promise<LlmError> {
  try {
    await p;
  } catch (err) {
    if (err instanceof LlmError) return err;
    throw err;
  }
  throw new Error('expected an LlmError');
}

describe('the client, against a local OpenAI-compatible server', () => {
  let fake: FakeOpenAI;
  let llm: LlmClient;
  const config = (over: Partial<Parameters<typeof createLlmClient>[0] & object> = {}) => ({
    baseUrl: fake.url,
    apiKey: undefined,
    model: 'm',
    embeddingModel: 'e',
    timeoutMs: 2000,
    maxRetries: 0,
    ...over,
  });
  beforeAll(async () => {
    fake = await startFakeOpenAI();
  });
  beforeEach(() => {
    fake.reset();
    const client = createLlmClient(config(), silent);
    if (!client) throw new Error('no client');
    llm = client;
  });
  afterAll(() => fake.close());

  it('is null without LLM_BASE_URL and refuses to embed without EMBEDDING_MODEL', async () => {
    expect(createLlmClient(null, silent)).toBeNull();
    const chatOnly = createLlmClient(config({ embeddingModel: null }), silent);
    expect((await llmError(chatOnly?.embed(['x']) ?? Promise.resolve())).reason).toBe('not_configured');
  });

  it('embeds in batches of 64, in input order, as floats', async () => {
    const texts = Array.from({ length: 130 }, (_, i) => `text number ${i}`);
    // The server answers each batch in reverse order, with indexes: the client must put them back.
    fake.onEmbeddings = (req) => ({
      json: { data: req.input.map((t, index) => ({ index, embedding: fakeEmbedding(t) })).reverse() },
    });
    const before = fake.embeddingRequests().length;
    const vectors = await llm.embed(texts);
    expect(
      fake
        .embeddingRequests()
        .slice(before)
        .map((r) => r.input.length),
    ).toEqual([64, 64, 2]);
    expect(vectors).toEqual(texts.map(fakeEmbedding));
    expect(fake.embeddingRequests().at(-1)?.body).toMatchObject({ model: 'e', encoding_format: 'float' });
    expect(fake.embeddingRequests().at(-1)?.authorization).toBe('Bearer no-key');
  });

  it('treats a change of dimension, a wrong count or an HTTP error as errors with a reason', async () => {
    await llm.embed(['first']);
    fake.onEmbeddings = (req) => ({ json: { data: req.input.map(() => ({ embedding: [1, 2, 3] })) } });
    expect((await llmError(llm.embed(['second']))).message).toMatch(/3-dimension vector, expected 256/);
    fake.onEmbeddings = () => ({ json: { data: [] } });
    expect((await llmError(llm.embed(['a', 'b']))).message).toMatch(/0 vectors for 2 texts/);
    fake.onEmbeddings = () => ({ status: 400 });
    expect(await llmError(llm.embed(['a']))).toMatchObject({ reason: 'http', status: 400 });
  });

  it('retries server errors LLM_MAX_RETRIES times, then fails; times out; reports an unreachable endpoint', async () => {
    const retrying = createLlmClient(config({ maxRetries: 2 }), silent);
    fake.onChat = () => ({ status: 503 });
    const before = fake.chatRequests().length;
    expect(await llmError(retrying?.chat([{ role: 'user', content: 'hi' }]) ?? Promise.resolve())).toMatchObject({
      reason: 'http',
      status: 503,
    });
    expect(fake.chatRequests().length - before).toBe(3);

    const impatient = createLlmClient(config({ timeoutMs: 200 }), silent);
    fake.onChat = () => ({ hang: true });
    expect((await llmError(impatient?.chat([{ role: 'user', content: 'hi' }]) ?? Promise.resolve())).reason).toBe(
      'timeout',
    );

    const nowhere = createLlmClient(config({ baseUrl: `http://127.0.0.1:${await freePort()}/v1` }), silent);
    expect((await llmError(nowhere?.chat([{ role: 'user', content: 'hi' }]) ?? Promise.resolve())).reason).toBe(
      'network',
    );
  });

  it('sends the JSON mode and returns the content', async () => {
    fake.onChat = () => ({ content: '{"ok": true}' });
    expect(await llm.chat([{ role: 'user', content: 'hi' }], { json: true })).toBe('{"ok": true}');
    expect(fake.chatRequests().at(-1)?.body).toMatchObject({
      model: 'm',
      temperature: 0,
      response_format: { type: 'json_object' },
      messages: [{ role: 'user', content: 'hi' }],
    });
  });
});
