import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { chunkBlocks } from '../../ingest/chunk';
import { htmlToBlocks } from '../../ingest/extract-html';
import { markdownToBlocks } from '../../ingest/extract-text';
import { isHeadingLine, joinBrokenWords, leadingTitleStripper, sentencesOf } from '../../ingest/sentences';
import { composeExtractive } from './compose';
import type { ChunkCandidate } from '../retrieval/retrieve';

const chunk = (
  id: string,
  text: string,
  opts: { section?: string | null; documentName?: string; documentId?: string } = {},
): ChunkCandidate => ({
  id,
  documentId: opts.documentId ?? `doc-${id}`,
  documentName: opts.documentName ?? 'notes.md',
  page: 1,
  section: opts.section ?? null,
  text,
  rank: 0.5,
});

/** The answer without its Yes/No opening. */
const body = (text: string) => text.replace(/^(?:Yes|No)\. /, '');

describe('an answer comes from one passage', () => {
  it('answers "How long are backups retained?" from the passage that says so, not from three places', () => {
    const extract = composeExtractive('How long are backups retained?', [
      chunk('a', 'Backups are encrypted with AES-256. Access to backups is limited to the operations team.'),
      chunk('b', 'Daily backups are retained for 35 days. Restores are tested every quarter.'),
      chunk('c', 'Audit logs are retained for 12 months. Passwords must be long and unique.'),
    ]);
    expect(extract.text).toBe('Daily backups are retained for 35 days.');
    expect(extract.passageText).toContain(extract.text);
    expect(extract.chunks[0]?.chunk.id).toBe('b');
    expect(extract.intentsStated).toBe(1);
  });

  it('answers only from the best passage when the parts of a question are in different documents', () => {
    const transit = chunk('t', 'Traffic between services travels over TLS 1.2 connections in transit.', {
      documentName: 'Network Standard.pdf',
    });
    const rest = chunk('r', 'Customer data is encrypted at rest with AES-256 on every database volume.', {
      documentName: 'Encryption Policy.pdf',
    });
    const extract = composeExtractive('Is customer data encrypted at rest and in transit?', [transit, rest]);
    expect(extract.text).toContain('encrypted at rest with AES-256');
    expect(extract.text).not.toContain('TLS');
    expect(extract.passageText).toBe(rest.text);
  });

  it('adds a neighbouring sentence of the same passage when it answers another part of the question', () => {
    const extract = composeExtractive('Is customer data encrypted at rest and in transit?', [
      chunk(
        'a',
        'Customer data is encrypted at rest with AES-256. Customer data in transit is protected with TLS 1.2. The office has a reception desk.',
      ),
    ]);
    expect(body(extract.text)).toBe(
      'Customer data is encrypted at rest with AES-256. Customer data in transit is protected with TLS 1.2.',
    );
  });

  it('leaves out a neighbouring sentence that only repeats the question’s words', () => {
    const extract = composeExtractive('How long are backups retained?', [
      chunk('a', 'Backups are retained for 35 days. Backups are copied to a second region.'),
    ]);
    expect(extract.text).toBe('Backups are retained for 35 days.');
  });

  it('keeps the sentence that carries on the subject of the first one', () => {
    const extract = composeExtractive('Can scheduled deletion be suspended for a legal hold?', [
      chunk(
        'a',
        'A legal hold suspends scheduled deletion of the records it covers. It is approved by the General Counsel.',
      ),
    ]);
    expect(extract.text).toContain('It is approved by the General Counsel.');
  });

  it('lists another document saying the same as a further source, without putting its text in the answer', () => {
    const policy = chunk('p', 'Security logs are retained for 400 days. Visitors sign in at reception.', {
      documentId: 'policy',
    });
    const standard = chunk('s', 'Security logs are retained for 400 days in the log archive.', {
      documentId: 'standard',
    });
    const neighbour = chunk('n', 'Security logs are retained for 400 days. Logs are reviewed weekly.', {
      documentId: 'policy',
    });
    const extract = composeExtractive('How long are security logs retained?', [policy, standard, neighbour]);
    expect(extract.text).toBe('Security logs are retained for 400 days.');
    expect(extract.chunks.map((c) => c.chunk.id)).toEqual(['p', 's']);
  });
});

describe('the answer keeps the order of the source', () => {
  it('prints its sentences as the passage has them, whichever was picked first', () => {
    const extract = composeExtractive('Who approves access reviews and how often are they performed?', [
      chunk(
        'a',
        'Access reviews are performed every quarter by system owners. Unrelated: the canteen opens at eight. The CISO approves the results of access reviews.',
      ),
    ]);
    const quarter = extract.text.indexOf('every quarter');
    const ciso = extract.text.indexOf('The CISO approves');
    expect(quarter).toBeGreaterThanOrEqual(0);
    expect(ciso).toBeGreaterThan(quarter);
    expect(extract.text).not.toContain('canteen');
  });

  it('never mixes passages or reorders sentences, for any passages (property)', () => {
    const facts = [
      'Backups are retained for 35 days.',
      'Audit logs are retained for one year.',
      'Laptops are encrypted with full-disk encryption.',
      'Access reviews are performed every quarter.',
      'Vendors are assessed before onboarding.',
      'Passwords must be at least 12 characters.',
      'It is approved by the CISO.',
      'The office has a reception desk.',
    ];
    const passage = fc.array(fc.constantFrom(...facts), { minLength: 1, maxLength: 6 });
    const question = fc.constantFrom(
      'How long are backups retained?',
      'How long are audit logs and backups retained?',
      'Are laptops encrypted?',
      'How often are access reviews performed and who approves them?',
      'What is your password policy?',
    );
    fc.assert(
      fc.property(fc.array(passage, { minLength: 1, maxLength: 4 }), question, (texts, q) => {
        const chunks = texts.map((t, i) => chunk(String(i), t.join(' ')));
        const extract = composeExtractive(q, chunks);
        if (!extract.text) return;
        const used = chunks.find((c) => c.id === extract.chunks[0]?.chunk.id);
        expect(used?.text).toBe(extract.passageText);
        const sentences = sentencesOf(body(extract.text));
        // Each sentence is the passage's, and they come in the passage's order.
        let from = 0;
        for (const s of sentences) {
          const at = extract.passageText.indexOf(s, from);
          expect(at).toBeGreaterThanOrEqual(from);
          from = at + s.length;
        }
        expect(sentences.length).toBeLessThanOrEqual(3);
      }),
    );
  });
});

describe('headings and titles run into a sentence are removed', () => {
  it('answers "What is your password policy?" without another document’s title spliced into the sentence', () => {
    const extract = composeExtractive('What is your password policy?', [
      chunk(
        'a',
        'Screens lock after five minutes of inactivity. Acceptable Use Policy All passwords must be at least 14 characters long.',
      ),
    ]);
    expect(extract.text).toBe('All passwords must be at least 14 characters long.');
  });

  it('removes the chunk’s section heading, numbered or not', () => {
    const extract = composeExtractive('How quickly must employees report a personal data breach?', [
      chunk('a', 'Personal Data Breaches Any employee who suspects a breach must report it within 1 hour.', {
        section: '11. Personal Data Breaches',
      }),
    ]);
    expect(extract.text).toBe('Any employee who suspects a breach must report it within 1 hour.');
  });

  it('removes the document’s title at the start of a chunk, whatever its case', () => {
    const extract = composeExtractive('How often are passwords rotated?', [
      chunk('a', 'INFORMATION SECURITY POLICY Passwords are rotated every 90 days.', {
        documentName: 'information_security_policy.pdf',
      }),
    ]);
    expect(extract.text).toBe('Passwords are rotated every 90 days.');
  });

  it('drops a heading on its own line, as the chunker leaves Markdown headings', () => {
    const [, passwords] = chunkBlocks(
      markdownToBlocks('# Acme Handbook\n\n## Backup and Recovery Standard\n\nBackups are retained for 35 days.'),
    );
    expect(passwords?.text).toBe('Backup and Recovery Standard\nBackups are retained for 35 days.');
    const extract = composeExtractive('How long are backups retained under the backup and recovery standard?', [
      chunk('a', passwords?.text ?? '', { section: null }),
    ]);
    expect(extract.text).toBe('Backups are retained for 35 days.');
  });

  it('cuts a capitalised run where a sentence visibly starts, and keeps a sentence that starts with a name', () => {
    const strip = leadingTitleStripper([]);
    expect(strip('Password Policy All passwords must be at least 14 characters.')).toBe(
      'All passwords must be at least 14 characters.',
    );
    expect(strip('Password Requirements Passwords must be at least 14 characters.')).toBe(
      'Passwords must be at least 14 characters.',
    );
    expect(strip('4.2 Access Control The company grants access on a least-privilege basis.')).toBe(
      'The company grants access on a least-privilege basis.',
    );
    expect(strip('Backups Backups are copied to a second region nightly.')).toBe(
      'Backups are copied to a second region nightly.',
    );
    for (const sentence of [
      'Amazon Web Services hosts the production environment.',
      'The Incident Response Plan Committee meets every month.',
      'Section A describes the escalation path for incidents.',
      'ISO 27001 Annex A controls are implemented in full.',
      'Policy Owners review their policies every year.',
      'Information Security Management System Owners meet monthly.',
      'All Employees Must Complete Training annually.',
    ])
      expect(strip(sentence)).toBe(sentence);
  });

  it('tells a heading line from a sentence', () => {
    expect(isHeadingLine('Backup and Recovery Policy')).toBe(true);
    expect(isHeadingLine('4.2 Access Control (AUP)')).toBe(true);
    expect(isHeadingLine('Backups are retained for 35 days')).toBe(false);
    expect(isHeadingLine('Backups Are Retained.')).toBe(false);
    expect(isHeadingLine('Control: Encryption At Rest; Owner: IT Operations')).toBe(false);
  });

  it('only ever removes a prefix of the sentence (property)', () => {
    const word = fc.constantFrom('Policy', 'All', 'The', 'Access', 'Control', 'data', 'is', 'kept', 'Backups', '4.2');
    fc.assert(
      fc.property(fc.array(word, { minLength: 1, maxLength: 12 }), fc.constantFrom(null, 'Access Control'), (ws, s) => {
        const sentence = ws.join(' ');
        expect(sentence.endsWith(leadingTitleStripper([s])(sentence))).toBe(true);
      }),
    );
  });
});

describe('a list in the passage stays a list in the answer', () => {
  const question = 'What are the password length, rotation and reuse requirements?';
  const passage = (blocks: ReturnType<typeof markdownToBlocks>) =>
    chunkBlocks(blocks).map((c, i) => chunk(String(i), c.text, { section: c.section }));

  it('keeps the items of a Markdown list on lines of their own, choosing the same sentences', () => {
    const list = [
      '- Passwords must be at least 14 characters long.',
      '- Passwords must be rotated every 90 days.',
      '- Password reuse of the last 12 passwords is blocked.',
    ].join('\n');
    const extract = composeExtractive(
      question,
      passage(markdownToBlocks(`# Passwords\n\nPassword requirements for all staff accounts:\n\n${list}\n`)),
    );
    // The chunker runs a Markdown list together ("… long. - Passwords must…"); what is scored stays that one line.
    expect(extract.text).toBe(
      'Password requirements for all staff accounts: - Passwords must be rotated every 90 days. - Password reuse of the last 12 passwords is blocked.',
    );
    expect(extract.shown).toBe(
      'Password requirements for all staff accounts:\n- Passwords must be rotated every 90 days.\n- Password reuse of the last 12 passwords is blocked.',
    );
  });

  it('splits a list the sentence splitter read as one sentence (items without full stops)', () => {
    const extract = composeExtractive(
      question,
      passage(
        markdownToBlocks(
          '# Passwords\n\nPassword requirements for all staff accounts:\n- Passwords must be at least 14 characters long\n- Passwords must be rotated every 90 days\n- Password reuse of the last 12 passwords is blocked\n',
        ),
      ),
    );
    expect(extract.shown).toBe(
      'Password requirements for all staff accounts:\n- Passwords must be at least 14 characters long\n- Passwords must be rotated every 90 days\n- Password reuse of the last 12 passwords is blocked',
    );
    expect(extract.shown.replace(/\n/g, ' ')).toBe(extract.text);
  });

  it('keeps the items of a Word list (one line each, no bullets) on lines of their own', () => {
    const extract = composeExtractive(
      question,
      passage(
        htmlToBlocks(
          '<h1>Passwords</h1><p>Password requirements for all staff accounts:</p><ul><li>Passwords must be at least 14 characters long</li><li>Passwords must be rotated every 90 days</li><li>Password reuse of the last 12 passwords is blocked</li></ul>',
        ),
      ),
    );
    expect(extract.text).toBe(
      'Password requirements for all staff accounts: Passwords must be rotated every 90 days Password reuse of the last 12 passwords is blocked',
    );
    expect(extract.shown).toBe(
      'Password requirements for all staff accounts:\nPasswords must be rotated every 90 days\nPassword reuse of the last 12 passwords is blocked',
    );
  });

  it('runs sentences of prose on as they are', () => {
    const extract = composeExtractive('Is customer data encrypted at rest and in transit?', [
      chunk(
        'a',
        'Customer data is encrypted at rest with AES-256.\nCustomer data in transit is protected with TLS 1.2.',
      ),
    ]);
    expect(extract.shown).toBe(extract.text);
    expect(extract.text).toContain('AES-256. Customer data in transit');
  });
});

describe('words hyphenated across a line break are joined', () => {
  it('joins a broken word as extracted and as the chunker collapsed it', () => {
    const extract = composeExtractive('Do you require multi-factor authentication for remote access?', [
      chunk('a', 'Multi-factor authenti- cation is required for all remote access.'),
    ]);
    expect(extract.text).toContain('Multi-factor authentication is required');
    expect(joinBrokenWords('All laptops use full-disk encryp-\ntion.')).toBe('All laptops use full-disk encryption.');
  });

  it('keeps suspended hyphens, compounds and dashes', () => {
    expect(joinBrokenWords('short- and long-term keys')).toBe('short- and long-term keys');
    expect(joinBrokenWords('a third- party auditor and a self-\nservice portal')).toBe(
      'a third-party auditor and a self-service portal',
    );
    expect(joinBrokenWords('end-to- end encryption')).toBe('end-to-end encryption');
    expect(joinBrokenWords('Data - including backups - is encrypted. Keys-\nRotation')).toBe(
      'Data - including backups - is encrypted. Keys-\nRotation',
    );
  });

  it('changes nothing in text without a hyphen before a line break or space (property)', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 200 }), (text) => {
        if (!/-\s/.test(text)) expect(joinBrokenWords(text)).toBe(text);
      }),
    );
  });
});

describe('Yes/No only about the organization itself', () => {
  it('answers "Are you ISO 27001 certified?" without "Yes" when only the cloud provider is certified', () => {
    const extract = composeExtractive('Are you ISO 27001 certified?', [
      chunk('a', 'The platform is hosted on AWS. AWS maintains ISO 27001 certification for its data centers.'),
    ]);
    expect(extract.text).toBe('AWS maintains ISO 27001 certification for its data centers.');
    expect(extract.aboutThirdParty).toBe(true);
  });

  it('prefers the organization’s own statement to the provider’s, and says Yes to it', () => {
    const extract = composeExtractive('Are you ISO 27001 certified?', [
      chunk('a', 'AWS maintains ISO 27001 certification for its data centers.'),
      chunk('b', 'We have been ISO 27001 certified since 2021.'),
    ]);
    expect(extract.text).toBe('Yes. We have been ISO 27001 certified since 2021.');
    expect(extract.aboutThirdParty).toBe(false);
  });

  it('still says No to a plain negation about the organization, and nothing to one about a provider', () => {
    const ours = composeExtractive('Do you store cardholder data?', [chunk('a', 'We never store cardholder data.')]);
    expect(ours.text).toBe('No. We never store cardholder data.');
    const theirs = composeExtractive('Do you store cardholder data?', [
      chunk('a', 'Our payment provider Stripe does not store cardholder data.'),
    ]);
    expect(theirs.text).toBe('Our payment provider Stripe does not store cardholder data.');
  });
});

describe('the fields the decision model reads', () => {
  it('measures coverage over the answer’s sentences and the first one, from the passage used', () => {
    const used = chunk(
      'a',
      'Customer data is encrypted at rest with AES-256. Customer data in transit is protected with TLS 1.2.',
    );
    const extract = composeExtractive('Is customer data encrypted at rest and in transit?', [
      chunk('z', 'The office has a reception desk staffed by day.'),
      used,
    ]);
    expect(extract.passageText).toBe(used.text);
    expect(extract.chunks[0]?.chunk.id).toBe('a');
    expect(extract.chunks[0]?.snippet).toBe('Customer data is encrypted at rest with AES-256.');
    expect(extract.firstCoverage).toBeGreaterThan(0.5);
    expect(extract.firstCoverage).toBeLessThan(1);
    expect(extract.coverage).toBe(1);
    expect(extract.matchedTerms).toBeGreaterThan(3);
    expect(extract.intents).toBe(0);
  });

  it('is empty when no sentence shares a word with the question', () => {
    const extract = composeExtractive('How long are backups retained?', [
      chunk('a', 'The office has a reception desk.'),
    ]);
    expect(extract).toMatchObject({ text: '', coverage: 0, firstCoverage: 0, passageText: '', chunks: [] });
  });

  it('never uses a sentence containing a banned token', () => {
    const extract = composeExtractive(
      'Is customer data encrypted at rest?',
      [chunk('a', 'Customer data is encrypted at rest by Acme-Secure. Customer data at rest is encrypted with AES.')],
      ['acme-secure'],
    );
    expect(extract.text).not.toContain('Acme-Secure');
    expect(extract.text).toContain('AES');
  });
});
