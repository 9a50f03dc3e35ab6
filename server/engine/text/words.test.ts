import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { americanSpelling, isStopWord, normalizeText, snowballStem, stem, STOP_WORDS, tokenize } from './words';

describe('normalizeText', () => {
  it('lower-cases, applies NFKC and drops Latin accents', () => {
    expect(normalizeText('ＳＯＣ２ Ｔｙｐｅ ＩＩ')).toBe('soc2 type ii');
    expect(normalizeText('Données chiffrées')).toBe('donnees chiffrees');
    expect(normalizeText('ﬁrewall')).toBe('firewall');
  });

  it('keeps version numbers and standard numbers as tokens', () => {
    expect(normalizeText('TLS 1.2 or higher')).toBe('tls 1.2 or higher');
    expect(normalizeText('TLSv1.3.')).toBe('tlsv 1.3');
    expect(normalizeText('ISO/IEC 27001:2013')).toBe('iso iec 27001 2013');
    expect(normalizeText('AES-256')).toBe('aes 256');
    expect(normalizeText('99.9% uptime')).toBe('99.9 percent uptime');
    expect(normalizeText('more than 1,000,000 users')).toBe('more than 1000000 users');
  });

  it('unifies quotes and dashes, spells out & and keeps negations', () => {
    expect(normalizeText('We don’t share data')).toBe('we do not share data');
    expect(normalizeText("can't, won't")).toBe('can not will not');
    expect(normalizeText('multi‑factor — two–factor')).toBe('multi factor two factor');
    expect(normalizeText('R&D')).toBe('r and d');
    expect(normalizeText("the customer's data")).toBe('the customer data');
  });

  it('drops sentence punctuation but not decimal points', () => {
    expect(normalizeText('Is data encrypted? Yes. E.g. with AES.')).toBe('is data encrypted yes e g with aes');
    expect(normalizeText('1.2.')).toBe('1.2');
  });

  it('never leaves punctuation, doubled spaces or edge spaces', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme', maxLength: 60 }), (text) => {
        const normal = normalizeText(text);
        expect(normal).toBe(normal.trim());
        expect(normal).not.toMatch(/\s{2}/);
        expect(normal).not.toMatch(/[^\p{L}\p{N}\p{M}. ]/u);
        expect(normalizeText(normal)).toBe(normal);
      }),
    );
  });
});

describe('tokenize', () => {
  it('splits the normal form into words, stop words included', () => {
    expect(tokenize('Is data encrypted at rest?')).toEqual(['is', 'data', 'encrypted', 'at', 'rest']);
    expect(tokenize('  ')).toEqual([]);
  });
});

describe('stem', () => {
  it('folds inflections the way questionnaires need', () => {
    expect(['encrypts', 'encrypted', 'encryption', 'encrypting'].map(stem)).toEqual(Array(4).fill('encrypt'));
    expect(stem('policies')).toBe(stem('policy'));
    expect(stem('penetration')).toBe('penetr');
  });

  // Computed with PostgreSQL 18's ts_lexize('english_stem', word) (PGlite): the stems in the full-text index.
  const POSTGRES: Record<string, string> = {
    encrypt: 'encrypt',
    encrypted: 'encrypt',
    encryption: 'encrypt',
    encrypts: 'encrypt',
    encrypting: 'encrypt',
    policy: 'polici',
    policies: 'polici',
    authentication: 'authent',
    authenticated: 'authent',
    authorization: 'author',
    authorize: 'author',
    organization: 'organ',
    generalization: 'general',
    communication: 'communic',
    community: 'communiti',
    vulnerability: 'vulner',
    vulnerabilities: 'vulner',
    vulnerable: 'vulner',
    certificate: 'certif',
    certification: 'certif',
    certified: 'certifi',
    certify: 'certifi',
    classification: 'classif',
    classify: 'classifi',
    retention: 'retent',
    retain: 'retain',
    response: 'respons',
    respond: 'respond',
    responsible: 'respons',
    added: 'add',
    agreed: 'agre',
    agreement: 'agreement',
    proceeding: 'proceed',
    succeed: 'succeed',
    skies: 'sky',
    dying: 'die',
    lying: 'lie',
    news: 'news',
    early: 'earli',
    gently: 'gentl',
    ugly: 'ugli',
    singly: 'singl',
    sky: 'sky',
    penetration: 'penetr',
    testing: 'test',
    tested: 'test',
    accessibility: 'access',
    applicable: 'applic',
    application: 'applic',
    production: 'product',
    recovery: 'recoveri',
    recover: 'recov',
    backups: 'backup',
    logging: 'log',
    login: 'login',
    requirement: 'requir',
    management: 'manag',
    manager: 'manag',
    compliance: 'complianc',
    compliant: 'compliant',
    complies: 'compli',
    availability: 'avail',
    redundancy: 'redund',
    segregation: 'segreg',
    segmentation: 'segment',
    configuration: 'configur',
    hardening: 'harden',
    privileged: 'privileg',
    administrative: 'administr',
    sanitization: 'sanit',
    destruction: 'destruct',
    disposal: 'dispos',
    notification: 'notif',
    notify: 'notifi',
    identity: 'ident',
    identifiable: 'identifi',
    personally: 'person',
    security: 'secur',
    securely: 'secur',
    cryptographic: 'cryptograph',
    cryptography: 'cryptographi',
    rotation: 'rotat',
    containers: 'contain',
    containment: 'contain',
    continuity: 'continu',
    continuous: 'continu',
    generally: 'general',
    generous: 'generous',
    arsenal: 'arsenal',
    inning: 'inning',
    outing: 'outing',
    herring: 'herring',
    evening: 'even',
  };

  it("agrees with PostgreSQL's english stemmer", () => {
    for (const [word, expected] of Object.entries(POSTGRES))
      expect([word, snowballStem(word)]).toEqual([word, expected]);
  });

  it('folds British spellings that PostgreSQL keeps apart', () => {
    expect(stem('organisation')).toBe(stem('organization'));
    expect(stem('anonymised')).toBe(stem('anonymized'));
    expect(stem('authorisation')).toBe(stem('authorization'));
    expect(stem('behaviour')).toBe(stem('behavior'));
    expect(stem('licence')).toBe(stem('license'));
    expect(americanSpelling('enterprise')).toBe('enterprise');
    expect(americanSpelling('compromise')).toBe('compromise');
  });

  it('leaves words with digits and words of two letters alone, as PostgreSQL does', () => {
    expect(stem('soc2')).toBe('soc2');
    expect(stem('aes256')).toBe('aes256');
    expect(stem('2fa')).toBe('2fa');
    expect(stem('is')).toBe('is');
  });

  it('is safe on words that name Object.prototype members', () => {
    expect(stem('constructor')).toBe('constructor');
    expect(stem('hasownproperty')).toBe('hasownproperti');
  });

  it('always returns a non-empty string', () => {
    fc.assert(
      fc.property(fc.stringMatching(/^[a-z]{1,16}$/), (word) => {
        expect(stem(word).length).toBeGreaterThan(0);
      }),
    );
  });
});

describe('STOP_WORDS', () => {
  it('drops questionnaire framing', () => {
    for (const w of [
      'do',
      'does',
      'you',
      'your',
      'please',
      'describe',
      'provide',
      'organization',
      'company',
      'vendor',
    ]) {
      expect(isStopWord(w)).toBe(true);
    }
  });

  it('keeps words that change what a control means', () => {
    for (const w of ['not', 'no', 'never', 'all', 'every', 'each', 'only', 'without', 'within', 'least', '24', '1']) {
      expect(STOP_WORDS.has(w)).toBe(false);
    }
  });
});
