import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  ancestorsOf,
  phraseTerms,
  specificTopics,
  TOPIC_PRESENT,
  topicAgreement,
  topicById,
  TOPICS,
  topicsOf,
} from './taxonomy';

const topicIds = (text: string) => [...topicsOf(text).keys()];
const specific = (text: string) => specificTopics(topicsOf(text));

describe('TOPICS', () => {
  it('has a few hundred topics with unique ids', () => {
    expect(TOPICS.length).toBeGreaterThanOrEqual(200);
    const ids = TOPICS.map((t) => t.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const id of ids) expect(id).toMatch(/^[a-z0-9]+(_[a-z0-9]+)*$/);
  });

  it('has phrases for every topic, each of which says something', () => {
    for (const topic of TOPICS) {
      expect([topic.id, topic.phrases.length > 0]).toEqual([topic.id, true]);
      for (const phrase of topic.phrases)
        expect([topic.id, phrase, phraseTerms(phrase).terms.length > 0]).toEqual([topic.id, phrase, true]);
    }
  });

  it('has a known parent for every child, declared before it, and no cycles', () => {
    const seen = new Set<string>();
    for (const topic of TOPICS) {
      if (topic.parent !== undefined) expect([topic.id, seen.has(topic.parent)]).toEqual([topic.id, true]);
      seen.add(topic.id);
      expect(ancestorsOf(topic.id)).not.toContain(topic.id);
    }
  });

  it('never gives two topics the same phrase', () => {
    const owner = new Map<string, string>();
    for (const topic of TOPICS) {
      for (const phrase of topic.phrases) {
        const { terms, adjacent } = phraseTerms(phrase);
        const key = `${adjacent ? '"' : ''}${terms.join(' ')}`;
        const claimed = owner.get(key);
        if (claimed !== undefined) expect([phrase, claimed]).toEqual([phrase, topic.id]);
        owner.set(key, topic.id);
      }
    }
  });

  it('recognises each topic from each of its own phrases', () => {
    for (const topic of TOPICS) {
      for (const phrase of topic.phrases) {
        expect([topic.id, phrase, topicsOf(phrase.replaceAll('"', '')).get(topic.id)]).toEqual([topic.id, phrase, 1]);
      }
    }
  });

  it('finds topics by id', () => {
    expect(topicById('iso27001')?.parent).toBe('certifications');
    expect(topicById('nope')).toBeUndefined();
    expect(ancestorsOf('rpo')).toEqual(['disaster_recovery', 'resilience']);
  });
});

/** Real questionnaire wording (CAIQ v4, SIG, HECVAT, VSAQ, customers) and the topic it must be tagged with. */
const QUESTIONS: ReadonlyArray<[string, string]> = [
  ['Are data-at-rest encryption controls implemented?', 'encryption_at_rest'],
  ['Is customer data encrypted at rest?', 'encryption_at_rest'],
  ['Is all data stored in databases encrypted?', 'database_encryption'],
  ['Is data encrypted in transit over public networks?', 'encryption_in_transit'],
  ['Is TLS 1.2 or higher enforced for all connections?', 'tls_configuration'],
  ['Are encryption keys rotated at least annually?', 'key_rotation'],
  ['Can customers bring their own encryption keys?', 'byok'],
  ['Is two-factor authentication required for remote access?', 'mfa_workforce'],
  ['Does the application support multi-factor authentication for end users?', 'mfa_customers'],
  ['Do you support SSO via SAML 2.0?', 'sso'],
  ['What is the minimum password length?', 'password_complexity'],
  ['Are passwords stored using a salted hash?', 'password_storage'],
  ['Are user access rights reviewed at least quarterly?', 'access_reviews'],
  ['Is access removed within 24 hours of an employee’s termination?', 'offboarding'],
  ['Is access granted on a least-privilege basis?', 'least_privilege'],
  ['Are security logs retained for at least one year?', 'log_retention'],
  ['Do you use a SIEM to correlate security events?', 'siem'],
  ['Do you perform authenticated vulnerability scans at least monthly?', 'vulnerability_scanning'],
  ['Is the application penetration tested annually by an independent third party?', 'penetration_testing'],
  ['Do you run a bug bounty program?', 'bug_bounty'],
  ['Within what timeframe are critical patches applied?', 'patch_management'],
  ['What is your remediation SLA for critical vulnerabilities?', 'patch_deadlines'],
  ['Is source code peer reviewed before it is merged?', 'code_review'],
  ['Do you use static application security testing (SAST)?', 'sast'],
  ['Do you maintain a documented SDLC?', 'secure_development'],
  ['Do you have a documented BCP?', 'business_continuity'],
  ['Is the disaster recovery plan tested annually?', 'dr_testing'],
  ['What is your recovery time objective (RTO)?', 'rto'],
  ['What is your RPO?', 'rpo'],
  ['Are backups performed daily?', 'backup_frequency'],
  ['Are backup restores tested regularly?', 'backup_testing'],
  ['Do you have a documented incident response plan?', 'incident_response_plan'],
  ['Will you notify customers of a data breach within 72 hours?', 'breach_notification'],
  ['Have you experienced a data breach in the last 3 years?', 'breach_history'],
  ['Do you assess the security of your vendors?', 'vendor_assessment'],
  ['Do you maintain a list of subprocessors?', 'subprocessors'],
  ['Will you sign a DPA?', 'dpa'],
  ['Do you rely on Standard Contractual Clauses for transfers?', 'scc'],
  ['Are background checks performed on employees prior to hire?', 'background_checks'],
  ['Do employees receive annual security awareness training?', 'security_training'],
  ['Do you run phishing simulations?', 'phishing_simulation'],
  ['Is physical access to the office controlled by badge readers?', 'physical_access_control'],
  ['Do you have a data classification policy?', 'data_classification'],
  ['How long is customer data retained after termination?', 'data_retention'],
  ['Is customer data securely deleted at the end of the contract?', 'data_deletion'],
  ['Are you SOC 2 Type II certified?', 'soc2'],
  ['Are you ISO 27001 certified?', 'iso27001'],
  ['Are you PCI DSS compliant?', 'pci_dss'],
  ['Will you sign a HIPAA Business Associate Agreement?', 'baa'],
  ['Are you FedRAMP authorized?', 'fedramp'],
  ['Are laptops protected with EDR?', 'edr'],
  ['Are mobile devices managed with MDM?', 'mdm'],
  ['Are changes to production approved before deployment?', 'change_management'],
  ['Do you maintain an inventory of hardware and software assets?', 'asset_inventory'],
  ['Is customer data logically segregated from other tenants?', 'tenant_isolation'],
  ['In which countries is customer data stored?', 'data_residency'],
  ['Is the service hosted on AWS?', 'cloud_hosting'],
  ['Is production data used in non-production environments?', 'test_data'],
  ['Do you use customer data to train AI models?', 'ai_customer_data'],
  ['Is the product WCAG 2.1 AA compliant?', 'accessibility'],
  ['Is the product usable with a screen reader?', 'accessibility'],
  ['Does the system log users out after 15 minutes of idle time?', 'session_management'],
  ['Is there an automatic sign-out for idle sessions?', 'session_management'],
  ['Can staff use their own devices for work?', 'byod'],
  ['How are customers notified of planned downtime or scheduled maintenance?', 'maintenance_windows'],
  ['What availability commitments are in your SLA?', 'uptime_sla'],
  ['Can provider personnel access tenant data?', 'customer_data_access'],
  ['Is institutional data encrypted at rest?', 'encryption_at_rest'],
  ['Do you engage ethical hackers to test the platform?', 'penetration_testing'],
  ['Is vendor risk assessed before onboarding a supplier?', 'vendor_assessment'],
  ['Does the application keep an activity log of user actions?', 'customer_audit_logs'],
  ['Is your SOC staffed 24/7?', 'security_monitoring'],
  ['Can you place data under a litigation hold?', 'legal_hold'],
  ['What key size do you use for RSA keys?', 'encryption_algorithms'],
  ['Describe your process for expedited changes.', 'emergency_changes'],
  ['Do you follow DISA STIGs or a secure configuration baseline?', 'hardening'],
  ['Can access to our account be restricted to specific IP addresses?', 'ip_allowlisting'],
  ['Do you use offshore staff to support the service?', 'offshore_personnel'],
  ['Please provide an overview of your company.', 'company_profile'],
  ['What year was the company founded, and what is the total headcount?', 'company_profile'],
  ['Can you provide audited financial statements?', 'financial_viability'],
  ['Are you or your owners on any sanctions list?', 'sanctions_export'],
  ['Do you have an anti-bribery and anti-corruption policy?', 'anti_corruption'],
  ['How many government requests for customer data did you receive?', 'government_access'],
  ['Do you support verifiable consumer requests under CCPA?', 'data_subject_rights'],
  ['Do you use application whitelisting on servers?', 'application_allowlisting'],
  ['Is a source code escrow agreement available?', 'source_code_escrow'],
  ['Does your website set marketing cookies?', 'cookies_tracking'],
];

describe('topicsOf', () => {
  it.each(QUESTIONS)('tags "%s" with %s', (question, topic) => {
    expect(topicIds(question)).toContain(topic);
  });

  it('never merges sibling topics', () => {
    expect(topicIds('Are you SOC 2 certified?')).not.toContain('iso27001');
    expect(topicIds('Are you ISO 27001 certified?')).not.toContain('soc2');
    expect(topicIds('What is your RTO?')).not.toContain('rpo');
    expect(topicIds('What is your RPO?')).not.toContain('rto');
    expect(topicIds('Is data encrypted at rest?')).not.toContain('encryption_in_transit');
    expect(topicIds('Is data encrypted in transit?')).not.toContain('encryption_at_rest');
    expect(topicIds('Are backups taken daily?')).not.toContain('disaster_recovery');
    expect(topicIds('Is there a disaster recovery plan?')).not.toContain('business_continuity');
    expect(topicIds('Do you perform penetration tests?')).not.toContain('vulnerability_scanning');
    expect(topicIds('Do you run vulnerability scans?')).not.toContain('penetration_testing');
    expect(topicIds('Do you have a bug bounty?')).not.toContain('penetration_testing');
    expect(topicIds('Is MFA required for remote access?')).not.toContain('mfa_customers');
    expect(topicIds('Does the application support MFA?')).not.toContain('mfa_workforce');
  });

  it('keeps a word from pulling in an unrelated topic', () => {
    expect(topicIds('Users log in with SSO.')).not.toContain('audit_logging');
    expect(topicIds('Do you perform third-party penetration tests?')).not.toContain('vendor_management');
    expect(topicIds('The contract contains a security clause.')).not.toContain('container_security');
    expect(topicIds('Is continuous monitoring in place?')).not.toContain('business_continuity');
    expect(topicIds('Please set up a meeting.')).not.toContain('environmental_controls');
    expect(topicIds('Do you hold a TLS certificate?')).not.toContain('certifications');
    expect(topicIds('Are users logged out after inactivity?')).not.toContain('logging_monitoring');
    expect(topicIds('Have you received government requests for data?')).not.toContain('governance');
    expect(topicIds('Are government surveillance laws a concern?')).not.toContain('cctv');
  });

  it('does not fire a tightened topic on a passing mention', () => {
    // One common word used to be enough for each of these.
    expect(topicIds('Are session cookies flagged Secure and HttpOnly?')).not.toContain('cookies_tracking');
    expect(topicIds('Do you offer a REST API for exporting data?')).not.toContain('api_security');
    expect(topicIds('Is there a trade secret clause in the NDA?')).not.toContain('secrets_management');
    expect(topicIds('Are encryption keys held in escrow?')).not.toContain('source_code_escrow');
    expect(topicIds('Do you outsource customer support?')).not.toContain('outsourced_development');
    expect(topicIds('Do you use offshore staff?')).not.toContain('data_residency');
    expect(topicIds('Are you on any sanctions list?')).not.toContain('disciplinary_process');
    expect(topicIds('Is IP allowlisting supported?')).not.toContain('application_allowlisting');
    expect(topicIds('Upload files to a shared directory.')).not.toContain('identity_management');
    expect(topicIds('Do your vendors meet your security requirements?')).not.toContain('threat_modeling');
    expect(topicIds('Are operational runbooks kept current?')).not.toContain('incident_response_plan');
    expect(topicIds('How many employees have access to customer data?')).not.toContain('company_profile');
    expect(topicIds('Are company-owned devices encrypted?')).not.toContain('byod');
    expect(topicIds('Is certificate pinning used in the mobile app?')).not.toContain('password_policy');
  });

  it('gives parents a weaker, inherited weight', () => {
    const topics = topicsOf('What is your RPO?');
    expect(topics.get('rpo')).toBe(1);
    expect(topics.get('disaster_recovery')).toBeCloseTo(0.6);
    expect(topics.get('resilience')).toBeCloseTo(0.36);
  });

  it('rates terms that are near each other below the phrase as written', () => {
    expect(topicsOf('Do you rotate your API keys?').get('key_rotation')).toBe(0.75);
    expect(topicsOf('Is key rotation automated?').get('key_rotation')).toBe(1);
  });

  it('does not collect a phrase across sentences', () => {
    expect(topicIds('Keys are stored in a vault. Rotation of staff happens yearly.')).not.toContain('key_rotation');
  });

  it('orders topics strongest first and keeps strengths in (0, 1]', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 120 }), (text) => {
        const values = [...topicsOf(text).values()];
        for (const v of values) expect(v > 0 && v <= 1).toBe(true);
        expect(values).toEqual([...values].sort((a, b) => b - a));
      }),
    );
    expect(topicsOf('').size).toBe(0);
  });

  it('tags a document chunk with many topics', () => {
    const chunk =
      'All customer data is encrypted at rest using AES-256 and in transit using TLS 1.2. Keys are managed in AWS ' +
      'KMS. Backups are taken daily and restore-tested quarterly. Our RTO is 4 hours and our RPO 1 hour. We are ' +
      'SOC 2 Type II and ISO 27001 certified.';
    expect(topicIds(chunk)).toEqual(
      expect.arrayContaining([
        'encryption_at_rest',
        'encryption_in_transit',
        'key_management',
        'backup_frequency',
        'backup_testing',
        'rto',
        'rpo',
        'soc2',
        'iso27001',
      ]),
    );
  });
});

describe('specificTopics', () => {
  it('keeps what the question asks about, not what it inherits', () => {
    expect(specific('Are you ISO 27001 certified?')).toEqual(['iso27001']);
    expect(specific('Is data encrypted at rest?')).toEqual(['encryption_at_rest']);
    expect(specific('Is data encrypted?')).toEqual(['encryption']);
    expect(specific('Describe your BCP/DR program, including RTO and RPO.').sort()).toEqual([
      'business_continuity',
      'rpo',
      'rto',
    ]);
  });
});

describe('topicAgreement', () => {
  const soc2Entry = topicsOf('Are you SOC 2 certified? Yes, we hold a SOC 2 Type II report, audited annually.');
  const isoEntry = topicsOf('Are you ISO 27001 certified? Yes, our ISMS is ISO/IEC 27001:2022 certified.');

  it('lists the ISO 27001 question’s topic as missing from a SOC 2-only entry', () => {
    const question = topicsOf('Are you ISO 27001 certified?');
    const vsSoc2 = topicAgreement(question, soc2Entry);
    expect(vsSoc2.missing).toEqual(['iso27001']);
    expect(vsSoc2.shared).toEqual(['certifications']);
    const vsIso = topicAgreement(question, isoEntry);
    expect(vsIso.missing).toEqual([]);
    expect(vsIso.score).toBe(1);
    expect(vsSoc2.score).toBeLessThan(vsIso.score);
  });

  it('does not demand the specific topic of a general question', () => {
    const question = topicsOf('What security certifications do you hold?');
    expect(topicAgreement(question, soc2Entry).missing).toEqual([]);
    expect(
      topicAgreement(topicsOf('Is data encrypted?'), topicsOf('Backups are encrypted with AES-256.')).missing,
    ).toEqual([]);
  });

  it('penalises the sibling in every direction', () => {
    expect(topicAgreement(topicsOf('What is your RTO?'), topicsOf('Our RPO is one hour.')).missing).toEqual(['rto']);
    expect(
      topicAgreement(topicsOf('Is data encrypted in transit?'), topicsOf('Data is encrypted at rest.')).missing,
    ).toEqual(['encryption_in_transit']);
    expect(
      topicAgreement(topicsOf('Is MFA required for remote access?'), topicsOf('Our app supports MFA for end users.'))
        .missing,
    ).toContain('mfa_workforce');
  });

  it('costs nothing for extra candidate topics and is zero for a question without topics', () => {
    const question = topicsOf('What is your RPO?');
    const chunk = topicsOf('RPO is 1 hour and RTO is 4 hours. Backups are encrypted. We are ISO 27001 certified.');
    expect(topicAgreement(question, chunk)).toEqual({
      score: 1,
      missing: [],
      shared: ['rpo', 'disaster_recovery', 'resilience'],
    });
    expect(topicAgreement(new Map(), chunk)).toEqual({ score: 0, missing: [], shared: [] });
  });

  it('counts a candidate as covering a topic from TOPIC_PRESENT on', () => {
    const question = new Map([['encryption', 1]]);
    expect(topicAgreement(question, new Map([['encryption', TOPIC_PRESENT]])).missing).toEqual([]);
    expect(topicAgreement(question, new Map([['encryption', TOPIC_PRESENT / 2]])).missing).toEqual(['encryption']);
  });

  it('keeps the score in [0, 1]', () => {
    const ids = fc.constantFrom(...TOPICS.map((t) => t.id));
    const topicMap = fc
      .array(fc.tuple(ids, fc.double({ min: 0.01, max: 1, noNaN: true })), { maxLength: 8 })
      .map((e) => new Map(e));
    fc.assert(
      fc.property(topicMap, topicMap, (q, c) => {
        const { score, missing } = topicAgreement(q, c);
        expect(score >= 0 && score <= 1).toBe(true);
        for (const id of missing) expect(q.has(id)).toBe(true);
      }),
    );
  });
});
