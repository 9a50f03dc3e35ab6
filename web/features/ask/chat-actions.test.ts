import { QueryClient } from '@tanstack/react-query';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { AnswerEntryView, SessionDetailView } from '../../../common/schemas/qa';
import { openSession, retryQuestion, sendQuestions, setDraft } from './chat-actions';
import { getChat, sendingStartsNewChat } from './chat-store';

const SESSION = '7d1f7a52-8a47-4d43-9d6b-0f3c5a1e2b10';

function entry(question: string): AnswerEntryView {
  return {
    id: crypto.randomUUID(),
    sessionId: SESSION,
    question,
    answer: 'Yes, through SAML 2.0.',
    answerType: 'canonical',
    confidence: 95,
    sources: [],
    lastVerified: null,
    createdAt: '2025-03-04T10:00:00.000Z',
    note: null,
    matches: [],
  };
}

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

/** A server whose /api/qa/ask answers with `ask` (session calls succeed). */
function serve(ask: (question: string) => Response) {
  vi.stubGlobal(
    'fetch',
    vi.fn((url: string, init: RequestInit) => {
      if (url === '/api/qa/sessions') return Promise.resolve(json(201, { id: SESSION }));
      if (url.startsWith('/api/qa/sessions/')) return Promise.resolve(json(200, { id: SESSION }));
      const body = JSON.parse(String(init.body)) as { question: string };
      return Promise.resolve(ask(body.question));
    }),
  );
}

const settled = (key: string) => vi.waitFor(() => expect(getChat(key).busy).toBe(false));

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('a question that fails', () => {
  it('stays in the chat marked failed, gives the composer its text back, and is answered on Retry', async () => {
    const key = 'workspace-failing';
    const queryClient = new QueryClient();
    serve(() => json(503, { error: 'The answer service is busy. Try again in a moment.' }));
    setDraft(key, 'Do you support SSO?');
    expect(sendQuestions(key, 'Do you support SSO?', queryClient)).toBe(true);
    // The composer empties once the question is sent.
    setDraft(key, '');
    await settled(key);
    const [message] = getChat(key).messages;
    expect(message).toMatchObject({
      question: 'Do you support SSO?',
      isLoading: false,
      answer: null,
      failed: 'The answer service is busy. Try again in a moment.',
    });
    expect(getChat(key).draft).toBe('Do you support SSO?');

    serve((question) => json(200, entry(question)));
    await retryQuestion(key, message?.id ?? '', queryClient);
    expect(getChat(key).messages).toHaveLength(1);
    expect(getChat(key).messages[0]).toMatchObject({ failed: null, answer: 'Yes, through SAML 2.0.' });
  });

  it('keeps what was typed after sending rather than overwriting it', async () => {
    const key = 'workspace-typing';
    serve(() => json(500, { error: 'Internal error' }));
    sendQuestions(key, 'Do you support SSO?', new QueryClient());
    setDraft(key, 'Do you encrypt backups?');
    await settled(key);
    expect(getChat(key).draft).toBe('Do you encrypt backups?');
    expect(getChat(key).messages[0]?.failed).toBe('Internal error');
  });
});

describe('a pasted questionnaire', () => {
  it('is sent whole, as its questions, never cut into a fragment', async () => {
    const key = 'workspace-paste';
    const asked: string[] = [];
    vi.stubGlobal(
      'fetch',
      vi.fn((url: string, init: RequestInit) => {
        if (url === '/api/qa/sessions') return Promise.resolve(json(201, { id: SESSION }));
        if (url.startsWith('/api/qa/sessions/')) return Promise.resolve(json(200, { id: SESSION }));
        const body = JSON.parse(String(init.body)) as { questions: string[] };
        asked.push(...body.questions);
        return Promise.resolve(json(200, { entries: body.questions.map(entry) }));
      }),
    );
    const questions = Array.from(
      { length: 22 },
      (_, i) => `Do you review access control number ${i + 1} for every production system each quarter?`,
    );
    expect(sendQuestions(key, questions.join('\n'), new QueryClient())).toBe(true);
    await settled(key);
    expect(asked).toEqual(questions);
    expect(getChat(key).messages).toHaveLength(22);
  });
});

describe('a reopened chat', () => {
  const detail = (userId: string, assessment: SessionDetailView['assessment'] = null): SessionDetailView => ({
    session: {
      id: SESSION,
      userId,
      username: 'alice',
      title: 'Do you support SSO?',
      customerName: null,
      entryCount: 1,
      createdAt: '2025-03-04T10:00:00.000Z',
    },
    entries: assessment ? [] : [entry('Do you support SSO?')],
    assessment,
  });

  it('shows its questions and answers and keeps asking in it', () => {
    const key = 'workspace-reopen';
    setDraft(key, 'half-typed');
    openSession(key, detail('me'), 'me');
    const chat = getChat(key);
    expect(chat).toMatchObject({ sessionId: SESSION, title: 'Do you support SSO?', titled: true, owner: null });
    expect(chat.draft).toBe('half-typed');
    expect(chat.messages.map((m) => [m.question, m.answer])).toEqual([
      ['Do you support SSO?', 'Yes, through SAML 2.0.'],
    ]);
    expect(sendingStartsNewChat(chat)).toBe(false);
  });

  it("is read-only when it is someone else's or a bulk assessment's: a question starts a new chat", () => {
    const key = 'workspace-others';
    openSession(key, detail('someone-else'), 'me');
    expect(getChat(key).owner).toBe('alice');
    expect(sendingStartsNewChat(getChat(key))).toBe(true);

    const assessment = { id: 'b1', customerName: 'Globex', fileName: 'globex.csv', totalQuestions: 50 };
    openSession(key, detail('me', assessment), 'me');
    expect(getChat(key).messages.map((m) => m.assessment)).toEqual([assessment]);
    expect(sendingStartsNewChat(getChat(key))).toBe(true);
  });
});
