import { describe, expect, it } from 'vitest';
import { THIRD_PARTY_SUBJECTS, aboutThirdParty, intentPhrases, thirdPartyJudge, yesOpening } from './answer-intent';

const CERTIFIED = 'Are you ISO 27001 certified?';

describe('a claim about a third party', () => {
  it('is one whose subject is a cloud provider, a data centre or a sub-processor', () => {
    for (const sentence of [
      'AWS maintains ISO 27001 certification.',
      'Amazon Web Services (AWS) is ISO 27001 certified.',
      'Microsoft Azure holds ISO 27001 certification for its regions.',
      'Google Cloud and GCP data centers are ISO 27001 certified.',
      'Our hosting provider is ISO 27001 certified.',
      'The data center is ISO 27001 certified.',
      'All sub-processors must be ISO 27001 certified.',
      'Our vendors are ISO 27001 certified.',
      "The provider's ISO 27001 certificate is checked every year.",
    ])
      expect(aboutThirdParty(CERTIFIED, sentence), sentence).toBe(true);
  });

  it('is one whose claim sits in a clause about the party, or has the party as its agent', () => {
    expect(aboutThirdParty(CERTIFIED, 'We host on AWS, which is ISO 27001 certified.')).toBe(true);
    expect(aboutThirdParty(CERTIFIED, 'ISO 27001 certification is maintained by our hosting provider.')).toBe(true);
    expect(aboutThirdParty(CERTIFIED, 'We require our cloud provider to be ISO 27001 certified.')).toBe(true);
  });

  it('is not one about the organization, even when a provider is named elsewhere in the sentence', () => {
    for (const sentence of [
      'We are ISO 27001 certified.',
      'The company is ISO 27001 certified.',
      'Acme has been ISO 27001 certified since 2021.',
      'AWS hosts our platform, and we are ISO 27001 certified.',
      'We are ISO 27001 certified and host our platform on AWS.',
    ])
      expect(aboutThirdParty(CERTIFIED, sentence), sentence).toBe(false);
  });

  it('is not one where the party’s name only describes a thing of the organization’s', () => {
    expect(aboutThirdParty('Is customer data encrypted at rest?', 'Customer data is encrypted at rest.')).toBe(false);
    expect(aboutThirdParty('Are encryption keys rotated?', 'AWS KMS encryption keys are rotated every year.')).toBe(
      false,
    );
    expect(aboutThirdParty('Are certificates rotated?', 'Client certificates are rotated every year.')).toBe(false);
    expect(aboutThirdParty('Is vendor access reviewed?', 'Vendor access is reviewed every quarter.')).toBe(false);
  });

  it('is not one when the question itself asks about that party', () => {
    expect(aboutThirdParty('Do your vendors hold SOC 2 reports?', 'All vendors hold SOC 2 reports.')).toBe(false);
    expect(
      aboutThirdParty('Is your hosting provider ISO 27001 certified?', 'Our hosting provider is ISO 27001 certified.'),
    ).toBe(false);
    // …but another party still is.
    expect(aboutThirdParty('Do you encrypt customer data?', 'AWS encrypts customer data at rest.')).toBe(true);
  });

  it('is judged alike for one question and many sentences', () => {
    const judge = thirdPartyJudge(CERTIFIED);
    expect(judge('AWS maintains ISO 27001 certification.')).toBe(true);
    expect(judge('We are ISO 27001 certified.')).toBe(false);
    expect(judge('AWS maintains ISO 27001 certification.')).toBe(true);
  });
});

describe('third parties are a data list', () => {
  it('names the cloud providers and the kinds of party a policy talks about', () => {
    for (const party of ['AWS', 'Azure', 'Google Cloud', 'GCP', 'hosting provider', 'data center', 'sub-processors'])
      expect(THIRD_PARTY_SUBJECTS).toContain(party);
    expect(THIRD_PARTY_SUBJECTS).toContain('vendors');
    expect(THIRD_PARTY_SUBJECTS).toContain('customer');
  });

  it('recognises every entry as the subject of a claim', () => {
    for (const party of THIRD_PARTY_SUBJECTS) {
      const subject = /^\p{Lu}/u.test(party) ? party : `The ${party}`;
      expect(aboutThirdParty(CERTIFIED, `${subject} is ISO 27001 certified.`), party).toBe(true);
    }
  });
});

describe('Yes/No openings about the organization', () => {
  it('gives no Yes to "Are you ISO 27001 certified?" when only the cloud provider is certified', () => {
    expect(yesOpening(CERTIFIED, 'AWS maintains ISO 27001 certification.', 1)).toBe('');
    expect(yesOpening(CERTIFIED, 'Our hosting provider is ISO 27001 certified.', 1)).toBe('');
  });

  it('gives Yes when the organization itself is certified', () => {
    expect(yesOpening(CERTIFIED, 'We are ISO 27001 certified.', 1)).toBe('Yes. ');
    expect(yesOpening(CERTIFIED, 'The organization is ISO 27001 certified.', 1)).toBe('Yes. ');
  });

  it('gives no No about a provider either, and still reads negations about the organization', () => {
    expect(yesOpening('Are you PCI compliant?', 'Stripe is not PCI compliant.', 1)).toBe('');
    expect(yesOpening('Do you store card numbers?', 'We never store card numbers.', 1)).toBe('No. ');
    expect(yesOpening('Do you store card numbers?', 'Card numbers are not stored.', 1)).toBe('No. ');
    expect(yesOpening('Do you allow personal devices?', 'Personal devices are allowed only when enrolled.', 1)).toBe(
      '',
    );
  });
});

describe('the words that ask for a kind of fact', () => {
  it('are found in the question, one per kind', () => {
    expect(intentPhrases('How long are backups retained?')).toEqual(['How long']);
    expect(intentPhrases('How often, and by which team, are reviews done?')).toEqual(['How often', 'which team']);
    expect(intentPhrases('Do you encrypt data at rest?')).toEqual([]);
  });
});
