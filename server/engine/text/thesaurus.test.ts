import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isStopWord, stem } from './words';
import {
  canonicalize,
  canonicalTerms,
  expandQuery,
  matchKeys,
  SYNONYM_GROUPS,
  synonymGroupsIn,
  tsqueryGroups,
  tsqueryTerms,
} from './thesaurus';

const terms = (text: string) => new Set(canonicalTerms(text));

/** Every phrasing must yield the canonical term; the list mixes acronyms, spellings and questionnaire wording. */
const EQUIVALENT: ReadonlyArray<[string, string[]]> = [
  [
    'mfa',
    [
      'Is multi-factor authentication required?',
      'Is 2FA enforced?',
      'Two-factor authentication is used',
      'Is 2-step verification enabled?',
      'Do you use MFA?',
      'multifactor authentication',
      'One-time passwords (OTP) are required',
      'Hardware tokens such as YubiKeys',
      'Is two factor auth supported?',
    ],
  ],
  ['sso', ['Single sign-on', 'Do you support Single Sign On (SSO)?', 'federated login', 'single-sign-on']],
  ['saml', ['SAML 2.0', 'SAMLv2', 'Security Assertion Markup Language']],
  [
    'pentest',
    ['penetration testing', 'pen-test', 'Annual pentests', 'Pen Testing', 'Is the application penetration tested?'],
  ],
  ['bcp', ['business continuity plan', 'BCP', 'Business Continuity Planning', 'BCP/DR', 'continuity of operations']],
  ['dr', ['disaster recovery', 'DR plan', 'BCP/DR', 'Disaster Recovery Planning']],
  ['atrest', ['Are data-at-rest encryption controls implemented?', 'encrypted at rest', 'encrypted while stored']],
  ['intransit', ['data in-transit', 'data in motion', 'encrypted over public networks', 'during transmission']],
  ['pii', ['personal data', 'PII', 'personally identifiable information', 'Personal Information']],
  ['rbac', ['role-based access control', 'RBAC', 'role based access']],
  ['siem', ['SIEM', 'Security Information and Event Management', 'centralized logging', 'centralised logging']],
  ['sdlc', ['SDLC', 'software development life cycle', 'Secure Development Lifecycle', 'SSDLC']],
  ['encrypt', ['encryption', 'encrypted', 'cryptographic protection', 'cryptography']],
  ['tls', ['TLS', 'SSL/TLS', 'Transport Layer Security', 'Secure Sockets Layer']],
  ['soc2', ['SOC 2', 'SOC2', 'SOC II', 'SOC 2 Type II']],
  ['iso27001', ['ISO 27001', 'ISO/IEC 27001:2013', 'ISO27001', 'ISO-27001 certified']],
  ['rto', ['RTO', 'recovery time objective', 'Recovery Time Objectives (RTOs)']],
  ['rpo', ['RPO', 'recovery point objective']],
  ['backup', ['backups', 'back up', 'backed up', 'Back-ups']],
  ['dlp', ['DLP', 'data loss prevention', 'data leakage prevention']],
  ['secur', ['information security', 'cybersecurity', 'cyber security', 'InfoSec']],
  ['employe', ['employees', 'staff', 'personnel', 'workforce members']],
  ['offboard', ['offboarding', 'off-boarding', 'deprovisioning', 'remove a leaver', 'deprovision accounts']],
  ['vdp', ['responsible disclosure', 'vulnerability disclosure program']],
  ['dpa', ['Data Processing Agreement', 'DPA', 'data processing addendum']],
  ['retent', ['retention', 'retained', 'retain']],
  ['classifi', ['classification', 'classified', 'classify']],
  ['respons', ['response', 'respond', 'responded']],
  ['logout', ['Users are logged out after 15 minutes', 'Does the system log users out?', 'sign out', 'log off']],
  ['byod', ['BYOD', 'personal devices', 'Can staff use their own devices?', 'privately owned devices']],
  ['uptim', ['uptime', 'availability SLA', 'guaranteed availability', 'availability commitments']],
  ['pentest', ['pen test', 'ethical hacking', 'ethical hackers']],
  ['24x7', ['24/7', '24x7x365', 'around the clock', 'round-the-clock', '24 hours a day, 7 days a week']],
  ['tabletop', ['tabletop exercise', 'table-top exercises', 'TTX']],
  ['password', ['passcode', 'PIN', 'PIN code']],
  ['harden', ['hardening', 'secure configuration baseline', 'configuration standards', 'secure build']],
  ['stig', ['DISA STIG', 'Security Technical Implementation Guides']],
  ['ssdf', ['NIST SSDF', 'NIST SP 800-218', 'Secure Software Development Framework']],
  ['dsar', ['privacy requests', 'verifiable consumer requests', 'data subject requests']],
  ['a11y', ['WCAG 2.1', 'VPAT', 'ADA compliance', 'Accessibility Conformance Report', 'Section 508']],
  ['govt', ['government requests', 'governmental authorities']],
];

/** Phrasings that must be rewritten to a multi-word canonical form (compared as text, before stemming). */
const EQUIVALENT_PHRASES: ReadonlyArray<[string, string[]]> = [
  ['session timeout', ['automatic sign-out', 'idle sessions', 'Are users automatically logged out after inactivity?']],
  ['maintenance window', ['maintenance window', 'planned downtime', 'scheduled maintenance', 'planned maintenance']],
  ['customer data', ['tenant data', 'institutional data', 'client data', 'customer information', "customer's data"]],
  ['third party risk management', ['TPRM', 'vendor risk', 'supplier risk management', 'supply chain risk management']],
  ['third party assessment', ['vendor risk assessment', 'third-party risk assessments', 'supplier due diligence']],
  ['audit log', ['audit trail', 'activity log', 'audit logging', 'audit history']],
  ['legal hold', ['legal hold', 'litigation hold', 'litigation holds']],
  ['key length', ['key length', 'key size', 'key sizes', 'key strength']],
  ['corporate overview', ['company overview', 'Tell us about your company', 'overview of your organisation']],
  ['emergency change', ['emergency change', 'expedited change', 'urgent changes', 'emergency releases']],
  ['screen lock', ['password-protected screensaver', 'session lock', 'clear screen']],
  ['security awareness', ['security awareness training', 'awareness training', 'cyber awareness']],
];

describe('canonicalTerms', () => {
  it.each(EQUIVALENT)('folds every spelling of %s', (canonical, phrasings) => {
    for (const text of phrasings) expect([text, terms(text).has(canonical)]).toEqual([text, true]);
  });

  it.each(EQUIVALENT_PHRASES)('rewrites every spelling to "%s"', (canonical, phrasings) => {
    for (const text of phrasings)
      expect([text, canonicalize(text)]).toEqual([text, expect.stringContaining(canonical)]);
  });

  it('makes questionnaire paraphrases share their key terms', () => {
    // CAIQ v4 vs a customer's wording.
    const caiq = terms('Are data-at-rest encryption controls implemented?');
    const customer = terms('Is customer data encrypted at rest?');
    for (const t of ['data', 'encrypt', 'atrest']) expect(caiq.has(t) && customer.has(t)).toBe(true);
    // SIG vs a customer's wording.
    const sig = terms('Is two-factor authentication required for remote access?');
    const other = terms('Is MFA required for remote access?');
    expect(sig).toEqual(other);
    // HECVAT: the protocol stays visible next to the feature.
    expect([...terms('Do you support SSO via SAML 2.0?')]).toEqual(expect.arrayContaining(['sso', 'saml']));
    // VSAQ.
    expect(terms('Does your application support multi-factor authentication?')).toEqual(
      terms('Does the app support 2FA?'),
    );
  });

  it('drops stop words but keeps negation and quantifiers', () => {
    expect(canonicalTerms('Do you not encrypt all backups?')).toEqual(['not', 'encrypt', 'all', 'backup']);
  });

  it('never merges sibling concepts', () => {
    const pairs: Array<[string, string]> = [
      ['SOC 2', 'ISO 27001'],
      ['SOC 2', 'SOC 1'],
      ['ISO 27001', 'ISO 27017'],
      ['ISO 27017', 'ISO 27018'],
      ['PCI DSS', 'SOC 2'],
      ['RTO', 'RPO'],
      ['recovery time objective', 'recovery point objective'],
      ['at rest', 'in transit'],
      ['SSO', 'SAML'],
      ['SAML', 'OIDC'],
      ['RBAC', 'least privilege'],
      ['BCP', 'DR'],
      ['backups', 'disaster recovery'],
      ['penetration test', 'vulnerability scan'],
      ['penetration test', 'bug bounty'],
      ['penetration test', 'red team'],
      ['GDPR', 'CCPA'],
      ['HIPAA', 'HITRUST'],
      ['SAST', 'DAST'],
      ['PII', 'PHI'],
      ['employees', 'contractors'],
      ['certificate', 'certification'],
      ['accessibility', 'access'],
      ['application', 'applicable'],
      ['production', 'product'],
      ['containers', 'contains'],
      ['IdPs', 'IDS/IPS'],
      ['users log in', 'audit logs'],
      ['users log out', 'audit logs'],
      ['log in', 'log out'],
      ['government', 'governance'],
      ['own devices', 'company-owned devices'],
      ['PIN', 'certificate pinning'],
      ['legal hold', 'eDiscovery'],
      ['emergency change', 'hotfix'],
      ['maintenance window', 'maintenance'],
      ['key length', 'key rotation'],
      ['visitor log', 'audit log'],
    ];
    for (const [a, b] of pairs) expect([a, b, canonicalTerms(a)]).not.toEqual([a, b, canonicalTerms(b)]);
  });

  it('prefers the longest phrase', () => {
    expect(canonicalize('privileged access management')).toBe('pam');
    expect(canonicalize('segregation of duties')).toBe('sod');
    expect(canonicalize('information security management system')).toBe('isms');
    expect(canonicalize('SOC 2 Type II')).toBe('soc2 type2');
    expect(canonicalize('Is MFA required for all users?')).toBe('is mfa required for all users');
  });
});

describe('SYNONYM_GROUPS', () => {
  it('is a rich thesaurus', () => {
    expect(SYNONYM_GROUPS.length).toBeGreaterThanOrEqual(100);
    expect(SYNONYM_GROUPS.reduce((n, g) => n + g.phrases.length, 0)).toBeGreaterThanOrEqual(300);
  });

  it('has well-formed canonical forms that are among their own phrases', () => {
    for (const group of SYNONYM_GROUPS) {
      expect(group.canonical).toMatch(/^[a-z0-9]+( [a-z0-9]+)*$/);
      expect(group.phrases).toContain(group.canonical);
      expect(group.phrases.length).toBeGreaterThan(1);
      if (!group.canonical.includes(' '))
        expect([group.canonical, isStopWord(group.canonical)]).toEqual([group.canonical, false]);
      expect(canonicalize(group.canonical)).toBe(group.canonical);
    }
  });

  it('never lets two groups claim the same phrase', () => {
    const owner = new Map<string, string>();
    for (const group of SYNONYM_GROUPS) {
      for (const phrase of group.phrases) {
        const key = matchKeys(phrase).join(' ');
        expect(key).not.toBe('');
        const claimed = owner.get(key);
        if (claimed !== undefined) expect([phrase, claimed]).toEqual([phrase, group.canonical]);
        owner.set(key, group.canonical);
      }
    }
  });

  it('gives every single-word canonical form its own stem', () => {
    const seen = new Map<string, string>();
    for (const group of SYNONYM_GROUPS) {
      if (group.canonical.includes(' ')) continue;
      const s = stem(group.canonical);
      expect([group.canonical, seen.get(s)]).toEqual([group.canonical, undefined]);
      seen.set(s, group.canonical);
    }
  });

  it('maps each phrase to its own group', () => {
    for (const group of SYNONYM_GROUPS) {
      for (const phrase of group.phrases) {
        expect([phrase, canonicalize(phrase.replaceAll('=', ''))]).toEqual([phrase, group.canonical]);
      }
    }
  });
});

describe('canonicalize', () => {
  it('is idempotent on questionnaire text and on runs of thesaurus phrases', () => {
    const samples = [
      ...EQUIVALENT.flatMap(([, texts]) => texts),
      'Describe your BCP/DR program including RTO and RPO for the production environment.',
      'Vendor risk management: do you assess your vendors and subprocessors annually?',
    ];
    for (const text of samples) expect(canonicalize(canonicalize(text))).toBe(canonicalize(text));
    const phrase = fc.constantFrom(...SYNONYM_GROUPS.flatMap((g) => g.phrases.map((p) => p.replaceAll('=', ''))));
    const filler = fc.constantFrom('is', 'the', 'and', 'required', 'for', 'data');
    fc.assert(
      fc.property(fc.array(fc.oneof(phrase, filler), { maxLength: 8 }), (parts) => {
        const once = canonicalize(parts.join(' '));
        expect(canonicalize(once)).toBe(once);
      }),
    );
  });
});

describe('expandQuery', () => {
  it('returns the distinct canonical terms and every spelling of the groups used', () => {
    const { tokens, phrases } = expandQuery('Is 2FA required? Is MFA required?');
    expect(tokens).toEqual(['mfa', 'requir']);
    expect(phrases).toEqual(
      expect.arrayContaining(['mfa', '2fa', 'two factor authentication', 'multi factor authentication']),
    );
  });

  it('lists the groups a text mentions', () => {
    expect(synonymGroupsIn('SSO via SAML, and SSO again').map((g) => g.canonical)).toEqual(['sso', 'saml']);
  });
});

describe('tsqueryTerms', () => {
  it('finds other spellings of the question’s phrases', () => {
    const q = tsqueryTerms('Is 2FA required for remote access?');
    expect(q.slice(0, 4)).toEqual(['2fa', 'required', 'remote', 'access']);
    expect(q).toEqual(expect.arrayContaining(['mfa', 'multifactor', 'factor']));
    expect(tsqueryTerms('Do you pentest annually?')).toEqual(expect.arrayContaining(['pentest', 'penetration']));
    expect(tsqueryTerms('data at rest')).toEqual(expect.arrayContaining(['data', 'rest', 'atrest']));
  });

  it('emits surface words, one per PostgreSQL lexeme, and British spellings with their American twin', () => {
    expect(tsqueryTerms('encrypted encryption encrypts')).toEqual([
      'encrypted',
      'cryptographic',
      'cryptography',
      'crypto',
      'encipher',
    ]);
    expect(tsqueryTerms('anonymisation')).toEqual(expect.arrayContaining(['anonymisation', 'anonymization']));
  });

  it('leaves out stop words and lone digits', () => {
    expect(tsqueryTerms('Do you have a SOC 2 report?')).toEqual(
      expect.not.arrayContaining(['do', 'you', 'have', 'a', '2']),
    );
    expect(tsqueryTerms('')).toEqual([]);
    expect(tsqueryTerms('?!')).toEqual([]);
  });

  it('only ever emits [a-z0-9] words, so joining them with " | " is a valid tsquery', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme', maxLength: 80 }), (text) => {
        for (const term of tsqueryTerms(text)) expect(term).toMatch(/^[a-z0-9]+$/);
        for (const group of tsqueryGroups(text)) {
          expect(group.length).toBeGreaterThan(0);
          for (const term of group) expect(term).toMatch(/^[a-z0-9]+$/);
        }
      }),
      { numRuns: 300 },
    );
    fc.assert(
      fc.property(fc.string({ maxLength: 80 }), (text) => {
        expect(tsqueryTerms(text).join(' | ')).toMatch(/^([a-z0-9]+( \| [a-z0-9]+)*)?$/);
      }),
    );
  });
});

describe('tsqueryGroups', () => {
  it('groups the spellings of one concept and keeps each term in one group', () => {
    const groups = tsqueryGroups('Is 2FA required for remote access?');
    expect(groups[0]).toEqual(expect.arrayContaining(['mfa', '2fa', 'multifactor']));
    expect(groups.slice(1)).toEqual([['required'], ['remote'], ['access']]);
    const all = groups.flat();
    expect(new Set(all).size).toBe(all.length);
  });
});
