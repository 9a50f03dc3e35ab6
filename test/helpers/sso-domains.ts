import type { TestApp } from './app';
import { call, type Session } from './api';
import type { TestDnsServer } from './dns-server';

type DomainClaim = { domain: string; verified: boolean; record: { name: string; value: string } };

/** The organization's claim of `domain` as the SSO tab shows it (with the TXT record to publish). */
export async function domainClaim(app: TestApp, admin: Session, domain: string): Promise<DomainClaim> {
  const res = await call(app, 'GET', '/api/admin/sso', { as: admin });
  if (res.statusCode !== 200) throw new Error(`SSO settings: ${res.statusCode} ${res.body}`);
  const claim = (res.data.domainClaims as DomainClaim[]).find((c) => c.domain === domain);
  if (!claim) throw new Error(`${domain} is not claimed`);
  return claim;
}

/**
 * Proves the organization holds a domain it claimed, as an admin would: publishes the claim's TXT record at the
 * test's DNS server (the app's DNS_SERVERS) and presses Verify.
 */
export async function verifyDomain(app: TestApp, admin: Session, dns: TestDnsServer, domain: string) {
  const { record } = await domainClaim(app, admin, domain);
  dns.setTxt(record.name, [record.value]);
  const res = await call(app, 'POST', `/api/admin/sso/domains/${domain}/verify`, { as: admin });
  if (res.statusCode !== 200) throw new Error(`verifying ${domain}: ${res.statusCode} ${res.body}`);
  return res;
}
