import { describe, expect, it } from 'vitest';
import { intentsOf, intentsStated, isYesNoQuestion, yesOpening } from '../text/answer-intent';
import { composeExtractive } from './compose';
import type { ChunkCandidate, EntryCandidate } from '../retrieval/retrieve';
import { DENSE_MODELS } from './models';
import { documentConfidence, extractFeatures, rankEntries } from './score';

const entry = (id: string, question: string, answer: string, tags: string[] = []): EntryCandidate => ({
  id,
  question,
  answer,
  tags,
  status: 'approved',
  updatedAt: new Date(),
  lastVerifiedAt: null,
  rank: 0.5,
  trigram: 0.2,
});

const chunk = (id: string, text: string, section: string | null = null): ChunkCandidate => ({
  id,
  documentId: `doc-${id}`,
  documentName: 'policy.md',
  page: 1,
  section,
  text,
  rank: 0.5,
});

describe('what kind of fact a question asks for', () => {
  it('reads durations, frequencies, counts, people and names from the question', () => {
    expect(intentsOf('How long is CCTV footage retained?')).toEqual(['duration']);
    expect(intentsOf('How often are tabletop exercises conducted?')).toEqual(['frequency']);
    expect(intentsOf('How many vendor risk tiers do you use?')).toEqual(['count']);
    expect(intentsOf('Who can authorize a legal hold?')).toEqual(['who']);
    expect(intentsOf('What tool do you use to track your vendor inventory?')).toEqual(['name']);
    expect(intentsOf('Do you encrypt data at rest?')).toEqual([]);
  });

  it('finds the sentence that states such a fact', () => {
    expect(intentsStated('Footage is retained for 30 days.', ['duration'])).toEqual(['duration']);
    expect(intentsStated('Exercises are held every six months.', ['frequency'])).toEqual(['frequency']);
    expect(intentsStated('CCTV covers the entrances.', ['duration'])).toEqual([]);
    expect(intentsStated('Inventory is tracked in Vanta.', ['name'])).toEqual(['name']);
  });
});

describe('Yes/No openings', () => {
  it('opens a plainly affirming answer to a yes/no question with Yes', () => {
    expect(isYesNoQuestion('Is TLS 1.0 disabled?')).toBe(true);
    expect(yesOpening('Is TLS 1.0 disabled?', 'TLS 1.0 and 1.1 are disabled on every endpoint.', 1)).toBe('Yes. ');
  });

  it('opens a plainly negating answer with No', () => {
    expect(yesOpening('Do you allow personal devices?', 'Personal devices are prohibited.', 1)).toBe('No. ');
    expect(yesOpening('Do you allow personal devices?', 'Personal devices are not allowed.', 1)).toBe('No. ');
  });

  it('says nothing when the evidence restricts, covers little, or the question is not yes/no', () => {
    expect(yesOpening('Do you allow personal devices?', 'Personal devices are allowed only when enrolled.', 1)).toBe(
      '',
    );
    expect(yesOpening('Do you allow personal devices?', 'Personal devices are not allowed unless enrolled.', 1)).toBe(
      '',
    );
    expect(yesOpening('Is TLS 1.0 not supported?', 'TLS 1.0 is never offered.', 1)).toBe('');
    expect(yesOpening('Do you allow personal devices?', 'Personal devices are allowed.', 0.5)).toBe('');
    expect(yesOpening('How long are logs kept?', 'Logs are kept for one year.', 1)).toBe('');
  });
});

describe('extractive answers', () => {
  it('prefers the sentence that states the kind of fact asked for over one that only shares words', () => {
    const extract = composeExtractive('How long is CCTV footage from the offices retained?', [
      chunk('a', 'CCTV footage covers the office entrances and the office reception areas.'),
      chunk('b', 'CCTV footage is retained for 30 days unless needed for an investigation.'),
    ]);
    expect(extract.text.startsWith('CCTV footage is retained for 30 days')).toBe(true);
    expect(extract.intentsStated).toBe(1);
  });

  it('keeps the next sentence of the same paragraph when it carries on the subject', () => {
    const extract = composeExtractive('Can scheduled deletion be suspended for a legal hold?', [
      chunk(
        'a',
        'A legal hold suspends scheduled deletion of the records it covers. It is approved by the General Counsel. Offices are cleaned daily.',
      ),
    ]);
    expect(extract.text).toContain('General Counsel');
    expect(extract.text).not.toContain('cleaned');
  });

  it('drops the section heading that runs into the first sentence of a chunk', () => {
    const extract = composeExtractive('How quickly must employees report a personal data breach?', [
      chunk(
        'a',
        'Personal Data Breaches Any employee who suspects a personal data breach must report it within 1 hour.',
        '11. Personal Data Breaches',
      ),
    ]);
    expect(extract.text).toBe('Any employee who suspects a personal data breach must report it within 1 hour.');
  });

  it('never uses a sentence containing a banned token, matched as plain text', () => {
    const extract = composeExtractive(
      'Is customer data encrypted at rest?',
      [chunk('a', 'Customer data is encrypted at rest with AES-256 (a.b*). Customer data at rest is encrypted.')],
      ['(a.b*)'],
    );
    expect(extract.text).not.toContain('(a.b*)');
    expect(extract.text).toContain('encrypted');
  });

  it('is more confident in sentences that answer than in ones that merely share a word', () => {
    const w = { idf: () => 1, known: () => true };
    const question = 'How long is CCTV footage from the offices retained?';
    const good = composeExtractive(question, [chunk('a', 'CCTV footage from the offices is retained for 30 days.')]);
    const poor = composeExtractive(question, [chunk('b', 'The offices have a reception desk staffed by day.')]);
    expect(documentConfidence(extractFeatures(question, good, w, 0))).toBeGreaterThan(
      documentConfidence(extractFeatures(question, poor, w, 0)),
    );
  });

  it('with embeddings, trusts the same sentences more when they mean what was asked', () => {
    const w = { idf: () => 1, known: () => true };
    const question = 'How long is CCTV footage from the offices retained?';
    const extract = composeExtractive(question, [chunk('a', 'CCTV footage from the offices is retained for 30 days.')]);
    const vectors = (extractVector: number) => ({ passageVector: 0.6, bestChunkVector: 0.6, extractVector });
    const close = extractFeatures(question, extract, w, 0, vectors(0.8));
    const far = extractFeatures(question, extract, w, 0, vectors(0.2));
    expect(close.extractVector).toBe(0.8);
    expect(documentConfidence(close, DENSE_MODELS.document)).toBeGreaterThan(
      documentConfidence(far, DENSE_MODELS.document),
    );
  });
});

describe('library confidence', () => {
  it('is a probability shared between candidates and "none of them"', () => {
    const ranked = rankEntries('Do you encrypt customer data at rest?', [
      entry('a', 'Is customer data encrypted at rest?', 'Yes, with AES-256.', ['encryption']),
      entry('b', 'Do you have a pet policy?', 'Dogs are welcome on Fridays.'),
    ]);
    expect(ranked[0]?.candidate.id).toBe('a');
    const total = ranked.reduce((sum, r) => sum + r.confidence, 0);
    expect(total).toBeLessThan(1);
    expect(ranked[0]?.confidence).toBeGreaterThan(ranked[1]?.confidence ?? 1);
  });

  it('splits confidence between two entries that match equally, so neither answers with certainty', () => {
    const one = rankEntries('Do you encrypt customer data at rest?', [
      entry('a', 'Is customer data encrypted at rest?', 'Yes.', ['encryption']),
    ]);
    const two = rankEntries('Do you encrypt customer data at rest?', [
      entry('a', 'Is customer data encrypted at rest?', 'Yes.', ['encryption']),
      entry('b', 'Is customer data encrypted at rest?', 'Yes.', ['encryption']),
    ]);
    expect(two[0]?.confidence ?? 1).toBeLessThan(one[0]?.confidence ?? 0);
  });

  it('doubts an entry whose answer never states the kind of fact the question asks for', () => {
    const question = 'How many days are audit logs retained?';
    const [withFact] = rankEntries(question, [
      entry('a', 'Are audit logs retained?', 'Audit logs are retained for 365 days.'),
    ]);
    const [without] = rankEntries(question, [entry('a', 'Are audit logs retained?', 'Audit logs are retained.')]);
    expect(withFact?.features.factMissing).toBe(0);
    expect(without?.features.factMissing).toBe(1);
    expect(without?.confidence ?? 1).toBeLessThan(withFact?.confidence ?? 0);
  });
});

describe('library confidence with embeddings', () => {
  const question = 'Do you encrypt customer data at rest?';
  const near = (id: string, vector: number, q = 'Is customer data encrypted at rest?') => ({
    ...entry(id, q, 'Yes, with AES-256.', ['encryption']),
    vector,
  });
  /** The encryption entry and a pet-policy entry, at these similarities by meaning, ranked by the dense models. */
  const rankDense = (encryption: number, pets: number) =>
    rankEntries(
      question,
      [near('a', encryption), near('b', pets, 'Do you have a pet policy?')],
      undefined,
      0,
      DENSE_MODELS,
    );

  it('trusts the best entry more when the embedding agrees with it and it leads by meaning', () => {
    const agreed = rankDense(0.85, 0.3);
    const disputed = rankDense(0.3, 0.85);
    expect(agreed[0]?.candidate.id).toBe('a');
    expect(agreed[0]?.features.vector).toBe(0.85);
    const best = (r: typeof agreed) => r.find((s) => s.candidate.id === 'a')?.confidence ?? 0;
    expect(best(agreed)).toBeGreaterThan(best(disputed));
  });

  it('recalibrates only the best entry; the runner-up keeps its share of the ranking', () => {
    const [best, second] = rankDense(0.85, 0.3);
    expect(DENSE_MODELS.answer).toBeDefined();
    expect(best?.confidence).toBeGreaterThan(0);
    expect(best?.confidence).toBeLessThan(1);
    expect(second?.confidence).toBeLessThan(best?.confidence ?? 0);
  });
});
