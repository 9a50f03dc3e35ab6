import { describe, expect, it } from 'vitest';
import { SSO_ERRORS } from '../../../common/schemas/sso';
import { ssoErrorSentence, ssoLookupQuery, ssoStartHref } from './sso-lookup';

describe('ssoLookupQuery', () => {
  it('reads an address as an e-mail and anything else as an organization, lower-cased', () => {
    expect(ssoLookupQuery('  ada@Acme.example ')).toEqual({ ok: true, query: { email: 'ada@Acme.example' } });
    expect(ssoLookupQuery('Acme-Corp')).toEqual({ ok: true, query: { organization: 'acme-corp' } });
  });

  it('refuses an empty box, a broken address and a name with spaces with a sentence', () => {
    expect(ssoLookupQuery('   ')).toMatchObject({ ok: false, message: expect.stringMatching(/^Enter your work/) });
    expect(ssoLookupQuery('ada@')).toEqual({ ok: false, message: 'Enter a valid e-mail address' });
    expect(ssoLookupQuery('Acme Corp')).toMatchObject({ ok: false, message: expect.stringMatching(/short name/) });
  });
});

describe('ssoErrorSentence', () => {
  it('gives the sentence of a known code', () => {
    expect(ssoErrorSentence('sso_expired')).toBe(SSO_ERRORS.sso_expired);
  });

  it('shows nothing for no code, an unknown code or an inherited property name', () => {
    expect(ssoErrorSentence(null)).toBeNull();
    expect(ssoErrorSentence('<b>hacked</b>')).toBeNull();
    expect(ssoErrorSentence('toString')).toBeNull();
  });
});

describe('ssoStartHref', () => {
  it('adds where to land, encoded, to the start address', () => {
    expect(ssoStartHref('/api/auth/sso/start?organization=acme', '/assessments?x=1&y=2')).toBe(
      '/api/auth/sso/start?organization=acme&returnTo=%2Fassessments%3Fx%3D1%26y%3D2',
    );
    expect(ssoStartHref('/api/auth/sso/start', '/dashboard')).toBe('/api/auth/sso/start?returnTo=%2Fdashboard');
  });

  it('leaves the address alone without a landing path', () => {
    expect(ssoStartHref('/api/auth/sso/start?organization=acme', null)).toBe('/api/auth/sso/start?organization=acme');
  });
});
