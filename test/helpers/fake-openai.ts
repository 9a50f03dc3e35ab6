import http from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A small local server speaking the OpenAI chat-completions and embeddings formats, for tests of the LLM path
 * through real HTTP (CONVENTIONS: third-party services are real local servers in tests). Embeddings are a
 * deterministic hashed bag of stemmed words with a few synonym groups of its own, so paraphrases land close without
 * sharing words; chat replies are programmable per test and default to a grounded answer from the prompt's
 * numbered excerpts. Every request is recorded; an unknown path answers 404 and is recorded too.
 */

export const FAKE_DIMENSIONS = 256;

export type ChatMessage = { role: string; content: string };
export type RecordedRequest = {
  method: string;
  path: string;
  authorization: string | undefined;
  body: Record<string, unknown>;
};
export type ChatRequest = RecordedRequest & { messages: ChatMessage[] };
export type EmbeddingsRequest = RecordedRequest & { input: string[] };

/** What the fake answers. */
export type FakeReply =
  /** A well-formed completion whose message content is this text. */
  | { content: string | null }
  /** This JSON body, whatever its shape. */
  | { json: unknown; status?: number }
  /** A non-JSON body. */
  | { text: string; status?: number; contentType?: string }
  /** An HTTP error (the SDK retries 5xx at once: the reply carries retry-after-ms: 1). */
  | { status: number }
  /** No reply at all, until the client gives up (its timeout) or the server closes. */
  | { hang: true };

const STOP = new Set(
  'a an the and or of to in on at for by with is are was were be been do does did you your we our us it its this that these those there can could may might will would should shall have has had not no yes all any each every when what which who how than then from as into about per'.split(
    ' ',
  ),
);

function stem(word: string): string {
  let w = word;
  if (w.length > 4 && w.endsWith('ies')) return `${w.slice(0, -3)}y`;
  for (const suffix of ['ing', 'ed', 'es', 's']) {
    if (w.length >= suffix.length + 3 && w.endsWith(suffix)) {
      w = w.slice(0, -suffix.length);
      break;
    }
  }
  return w;
}

/** The fake model's own "knowledge": groups of words it treats as one meaning. Unknown to the engine's thesaurus. */
const SYNONYMS: string[][] = [
  ['dog', 'pet', 'puppy'],
  ['office', 'workplace', 'premises'],
  ['come', 'welcome', 'allowed', 'bring'],
  ['meal', 'lunch', 'food', 'canteen', 'cafeteria'],
  ['cover', 'subsidised', 'subsidized', 'pay', 'paid', 'fund'],
];
const CANONICAL = new Map<string, string>();
for (const group of SYNONYMS) for (const w of group) CANONICAL.set(stem(w), stem(group[0] ?? w));

export function fakeTokens(text: string): string[] {
  return (text.toLowerCase().match(/[a-z0-9]+/g) ?? [])
    .filter((w) => !STOP.has(w))
    .map((w) => {
      const s = stem(w);
      return CANONICAL.get(s) ?? s;
    });
}

function fnv1a(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i += 1) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h;
}

/** The fake model's embedding: normalized, FAKE_DIMENSIONS long, never all zero. */
export function fakeEmbedding(text: string): number[] {
  const v = new Array<number>(FAKE_DIMENSIONS).fill(0);
  for (const t of fakeTokens(text)) {
    const h = fnv1a(t);
    v[h % FAKE_DIMENSIONS] = (v[h % FAKE_DIMENSIONS] ?? 0) + ((h >>> 16) & 1 ? 1 : -1);
  }
  // A constant component keeps empty or stop-word-only text from being a zero vector.
  v[0] = (v[0] ?? 0) + 0.01;
  const norm = Math.sqrt(v.reduce((s, x) => s + x * x, 0));
  return v.map((x) => x / norm);
}

export function cosine(a: number[], b: number[]): number {
  return a.reduce((s, x, i) => s + x * (b[i] ?? 0), 0);
}

/** The question and numbered excerpts of a grounded prompt (as server/engine/ranking/generate-llm.ts writes it). */
export function promptParts(messages: ChatMessage[]): { question: string; excerpts: Map<number, string> } {
  const user = messages.find((m) => m.role === 'user')?.content ?? '';
  const question = /^Question: (.*)$/m.exec(user)?.[1] ?? '';
  const excerpts = new Map<number, string>();
  const listed = user.split('\nExcerpts:\n\n')[1] ?? '';
  for (const part of listed.split(/\n\n(?=\[\d+\] \()/)) {
    const m = /^\[(\d+)\] \(.*\)\n([\s\S]*)$/.exec(part);
    if (m) excerpts.set(Number(m[1]), (m[2] ?? '').trim());
  }
  return { question, excerpts };
}

/**
 * The default chat behaviour: the excerpt closest to the question (by the fake embedding) answers it with its
 * first sentence, "Yes. " first for a yes/no question, and an inline marker the engine must strip; none close
 * enough → unsupported.
 */
export function groundedReply(req: ChatRequest): FakeReply {
  const { question, excerpts } = promptParts(req.messages);
  const q = fakeEmbedding(question);
  let best: { n: number; score: number; text: string } | null = null;
  for (const [n, text] of excerpts) {
    const score = cosine(q, fakeEmbedding(text));
    if (!best || score > best.score) best = { n, score, text };
  }
  if (!best || best.score < 0.2) return { content: JSON.stringify({ supported: false, answer: '', sources: [] }) };
  // The first sentence of the excerpt's first real paragraph (a chunk may start with its section heading).
  const paragraph = best.text.split(/\n\s*\n/).find((p) => /[.!?]/.test(p)) ?? best.text;
  const sentence =
    paragraph
      .replace(/\s+/g, ' ')
      .trim()
      .split(/(?<=\.)\s/)[0] ?? paragraph;
  const yesNo = /^(do|does|is|are|can|have|has)\b/i.test(question.trim());
  return {
    content: JSON.stringify({
      supported: true,
      answer: `${yesNo ? 'Yes. ' : ''}${sentence} [${best.n}]`,
      sources: [best.n],
    }),
  };
}

export function defaultEmbeddings(req: EmbeddingsRequest): FakeReply {
  return {
    json: {
      object: 'list',
      model: req.body.model,
      data: req.input.map((text, index) => ({ object: 'embedding', index, embedding: fakeEmbedding(text) })),
      usage: { prompt_tokens: 0, total_tokens: 0 },
    },
  };
}

export type FakeOpenAI = {
  /** Base URL to put in LLM_BASE_URL (…/v1). */
  url: string;
  requests: RecordedRequest[];
  chatRequests: () => ChatRequest[];
  embeddingRequests: () => EmbeddingsRequest[];
  /** How the next chat requests are answered (default: groundedReply). */
  onChat: (req: ChatRequest) => FakeReply | Promise<FakeReply>;
  /** How the next embeddings requests are answered (default: defaultEmbeddings). */
  onEmbeddings: (req: EmbeddingsRequest) => FakeReply | Promise<FakeReply>;
  /** Back to the default behaviours. */
  reset: () => void;
  close: () => Promise<void>;
};

function send(res: http.ServerResponse, reply: FakeReply, model: unknown) {
  if ('hang' in reply) return;
  if ('content' in reply) {
    const body = {
      id: 'chatcmpl-fake',
      object: 'chat.completion',
      created: Math.floor(Date.now() / 1000),
      model,
      choices: [{ index: 0, message: { role: 'assistant', content: reply.content }, finish_reason: 'stop' }],
      usage: { prompt_tokens: 0, completion_tokens: 0, total_tokens: 0 },
    };
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(body));
  } else if ('json' in reply) {
    res.writeHead(reply.status ?? 200, { 'content-type': 'application/json' }).end(JSON.stringify(reply.json));
  } else if ('text' in reply) {
    res.writeHead(reply.status ?? 200, { 'content-type': reply.contentType ?? 'text/html' }).end(reply.text);
  } else {
    res
      .writeHead(reply.status, { 'content-type': 'application/json', 'retry-after-ms': '1' })
      .end(JSON.stringify({ error: { message: `fake error ${reply.status}`, type: 'server_error' } }));
  }
}

export async function startFakeOpenAI(): Promise<FakeOpenAI> {
  const requests: RecordedRequest[] = [];
  const fake: Pick<FakeOpenAI, 'onChat' | 'onEmbeddings'> = { onChat: groundedReply, onEmbeddings: defaultEmbeddings };
  const answer = (res: http.ServerResponse, reply: FakeReply | Promise<FakeReply>, model: unknown) =>
    Promise.resolve(reply).then(
      (r) => send(res, r, model),
      () => res.writeHead(500).end(),
    );
  const server = http.createServer((req, res) => {
    const parts: Buffer[] = [];
    req.on('data', (d: Buffer) => parts.push(d));
    req.on('end', () => {
      let body: Record<string, unknown> = {};
      try {
        const parsed: unknown = JSON.parse(Buffer.concat(parts).toString('utf8') || '{}');
        if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) body = parsed as Record<string, unknown>;
      } catch {
        // Recorded with an empty body; the route below answers 400.
      }
      const recorded: RecordedRequest = {
        method: req.method ?? '',
        path: (req.url ?? '').split('?')[0] ?? '',
        authorization: req.headers.authorization,
        body,
      };
      requests.push(recorded);
      if (req.method === 'POST' && recorded.path === '/v1/chat/completions' && Array.isArray(body.messages)) {
        const r: ChatRequest = { ...recorded, messages: body.messages as ChatMessage[] };
        void answer(res, fake.onChat(r), body.model);
      } else if (req.method === 'POST' && recorded.path === '/v1/embeddings' && body.input !== undefined) {
        const input = Array.isArray(body.input) ? body.input.map(String) : [String(body.input)];
        void answer(res, fake.onEmbeddings({ ...recorded, input }), body.model);
      } else {
        res
          .writeHead(404, { 'content-type': 'application/json' })
          .end(JSON.stringify({ error: { message: 'not found' } }));
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/v1`,
    requests,
    chatRequests: () =>
      requests
        .filter((r) => r.path === '/v1/chat/completions')
        .map((r) => ({ ...r, messages: (r.body.messages ?? []) as ChatMessage[] })),
    embeddingRequests: () =>
      requests
        .filter((r) => r.path === '/v1/embeddings')
        .map((r) => ({ ...r, input: Array.isArray(r.body.input) ? r.body.input.map(String) : [String(r.body.input)] })),
    get onChat() {
      return fake.onChat;
    },
    set onChat(fn) {
      fake.onChat = fn;
    },
    get onEmbeddings() {
      return fake.onEmbeddings;
    },
    set onEmbeddings(fn) {
      fake.onEmbeddings = fn;
    },
    reset: () => {
      fake.onChat = groundedReply;
      fake.onEmbeddings = defaultEmbeddings;
    },
    close: async () => {
      // Hanging requests would keep close() waiting for ever.
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
