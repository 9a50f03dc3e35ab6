import dns from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import { BlockList, isIP, type LookupFunction } from 'node:net';
import type * as oidc from 'openid-client';
import type { AllowedIssuerHost } from '../../config';

/**
 * Which addresses Verity calls for an organization's identity provider. Any organization admin (and sign-up is
 * open) chooses the issuer, and the issuer's discovery document chooses the token and key endpoints: without this
 * guard either could make the server call its own network — cloud metadata, admin consoles, databases — with a
 * code and client secret the admin picked (SSRF). Only public addresses are called, unless the operator allowed the
 * host in SSO_ALLOWED_ISSUER_HOSTS (an on-premises provider).
 */

/**
 * Addresses that are not on the public internet (IANA's special-purpose registries): loopback, RFC 1918 and unique
 * local, link-local (cloud metadata at 169.254.169.254 and fd00:ec2::254 included), CGNAT, unspecified,
 * documentation, benchmarking, multicast and reserved ranges, and the IPv6 transition prefixes that carry an IPv4
 * address inside (NAT64, 6to4, Teredo), which could reach a private IPv4 address in disguise. An IPv4-mapped IPv6
 * address (::ffff:10.0.0.1) is checked as the IPv4 address it is (BlockList does so).
 */
const NON_PUBLIC = new BlockList();
for (const [prefix, bits] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.88.99.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const) {
  NON_PUBLIC.addSubnet(prefix, bits, 'ipv4');
}
for (const [prefix, bits] of [
  ['::', 96],
  ['64:ff9b::', 96],
  ['64:ff9b:1::', 48],
  ['100::', 64],
  ['2001::', 23],
  ['2001:db8::', 32],
  ['2002::', 16],
  ['3fff::', 20],
  ['5f00::', 16],
  ['fc00::', 7],
  ['fe80::', 10],
  ['fec0::', 10],
  ['ff00::', 8],
] as const) {
  NON_PUBLIC.addSubnet(prefix, bits, 'ipv6');
}

/** Whether an IP address (without brackets) is one of the public internet's. */
export function isPublicAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 0) return false;
  return !NON_PUBLIC.check(address, family === 4 ? 'ipv4' : 'ipv6');
}

/** Why a URL is not called; `message` is for the server log, never for the audit log or the browser. */
export class AddressNotAllowed extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'AddressNotAllowed';
  }
}

const LOOPBACK_NAMES = new Set(['localhost', '127.0.0.1', '[::1]']);

function isAllowedHost(url: URL, allowed: readonly AllowedIssuerHost[]): boolean {
  const port = url.port ? Number(url.port) : url.protocol === 'https:' ? 443 : 80;
  return allowed.some((a) => a.host === url.hostname && (a.port === null || a.port === port));
}

/** The host of a URL as node:net takes it: an IPv6 address without its brackets. */
const bareHost = (url: URL) => url.hostname.replace(/^\[(.*)\]$/, '$1');

/**
 * What can be decided without DNS: the scheme, the allow-list, and a host written as an address. Plain http only
 * to a loopback host the operator allowed (a provider on the same machine), as the issuer rule has always been:
 * anywhere else the client secret and codes would cross a network in clear.
 * Returns whether the host is allowed (then no address check follows) or throws.
 */
function checkWithoutDns(url: URL, allowed: readonly AllowedIssuerHost[]): boolean {
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    throw new AddressNotAllowed(`${url.protocol} is not http(s)`);
  }
  const isAllowed = isAllowedHost(url, allowed);
  if (url.protocol === 'http:' && !(isAllowed && LOOPBACK_NAMES.has(url.hostname))) {
    throw new AddressNotAllowed(`plain http to ${url.host}, which is not an allowed loopback host`);
  }
  if (!isAllowed && isIP(bareHost(url)) !== 0 && !isPublicAddress(bareHost(url))) {
    throw new AddressNotAllowed(`${url.host} is not a public address`);
  }
  return isAllowed;
}

/**
 * The sentence for an admin saving an issuer Verity would refuse to call, or null when it may be saved. A name that
 * does not resolve (yet) is accepted: what counts is the address at each connection, which the fetch below checks.
 */
export async function issuerRefusal(issuer: URL, allowed: readonly AllowedIssuerHost[]): Promise<string | null> {
  const advice =
    'Use your identity provider’s public https:// address, or, for a provider inside your network, ask whoever runs Verity to add its host to SSO_ALLOWED_ISSUER_HOSTS.';
  try {
    if (checkWithoutDns(issuer, allowed) || isIP(bareHost(issuer)) !== 0) return null;
  } catch {
    return issuer.protocol === 'http:'
      ? `Verity calls a plain http:// issuer only on this machine, when its host is in SSO_ALLOWED_ISSUER_HOSTS. ${advice}`
      : `The issuer is on a private, loopback or link-local address, which Verity does not call. ${advice}`;
  }
  const addresses = await resolveAll(issuer.hostname).catch(() => []);
  if (addresses.some((a) => !isPublicAddress(a.address))) {
    return `The issuer's host name points to a private, loopback or link-local address, which Verity does not call. ${advice}`;
  }
  return null;
}

const LOOKUP_TIMEOUT_MS = 5_000;

function resolveAll(hostname: string): Promise<dns.LookupAddress[]> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('DNS lookup timed out')), LOOKUP_TIMEOUT_MS);
    dns.lookup(hostname, { all: true, verbatim: true }, (err, addresses) => {
      clearTimeout(timer);
      if (err) reject(err);
      else resolve(addresses);
    });
  });
}

/**
 * Resolves as node:net would, then refuses the connection if any address is not public. Checked here, at
 * connection time, rather than before the request: a name could resolve to a public address for the check and to
 * an internal one a moment later (DNS rebinding).
 */
const publicOnlyLookup: LookupFunction = (hostname, options, callback) => {
  dns.lookup(hostname, { ...options, all: true }, (err, addresses) => {
    if (err) return callback(err, '', 0);
    const refused = addresses.find((a) => !isPublicAddress(a.address));
    if (refused || addresses.length === 0) {
      return callback(new AddressNotAllowed(`${hostname} resolves to ${refused?.address ?? 'nothing'}`), '', 0);
    }
    const first = addresses[0] as dns.LookupAddress;
    // node:net asks for every address (`all`) when it races IPv4 and IPv6, else for one.
    if ((options as dns.LookupOptions).all) {
      (callback as unknown as (e: null, a: dns.LookupAddress[]) => void)(null, addresses);
    } else callback(null, first.address, first.family);
  });
};

/** Discovery documents, key sets and token answers are a few kilobytes; more is not an identity provider. */
const MAX_RESPONSE_BYTES = 1024 * 1024;

function requestBody(body: oidc.CustomFetchOptions['body']): Buffer | undefined {
  if (body === undefined || body === null) return undefined;
  if (typeof body === 'string') return Buffer.from(body);
  if (body instanceof URLSearchParams) return Buffer.from(body.toString());
  if (body instanceof ArrayBuffer) return Buffer.from(body);
  if (body instanceof Uint8Array) return Buffer.from(body);
  throw new Error('streamed request bodies are not sent to identity providers');
}

/**
 * The `fetch` openid-client uses for every request of an organization's provider — discovery, token, keys: each
 * URL (the issuer's and whatever its discovery document names) must pass the guard, and a host name's address is
 * checked when connecting. No redirects are followed (openid-client asks for none), so none can lead elsewhere.
 */
export function guardedFetch(allowed: readonly AllowedIssuerHost[]): oidc.CustomFetch {
  return async (input, options) => {
    const url = new URL(input);
    const isAllowed = checkWithoutDns(url, allowed);
    const body = requestBody(options.body);
    const client = url.protocol === 'https:' ? https : http;
    return new Promise<Response>((resolve, reject) => {
      const req = client.request(
        url,
        {
          method: options.method,
          headers: { ...options.headers, ...(body && { 'content-length': String(body.length) }) },
          signal: options.signal,
          // A connection of its own: a pooled socket could have been opened under another decision.
          agent: false,
          ...(!isAllowed && { lookup: publicOnlyLookup }),
        },
        (res) => {
          const chunks: Buffer[] = [];
          let size = 0;
          res.on('data', (chunk: Buffer) => {
            size += chunk.length;
            if (size > MAX_RESPONSE_BYTES) res.destroy(new Error('the response is larger than 1 MiB'));
            else chunks.push(chunk);
          });
          res.on('error', reject);
          // Cut off (timeout, size): no 'end' comes, and a settled promise ignores this.
          res.on('close', () => reject(new Error('the connection closed before the response ended')));
          res.on('end', () => {
            const status = res.statusCode ?? 0;
            if (status < 200 || status > 599) return reject(new Error(`unexpected HTTP status ${status}`));
            const headers = new Headers();
            for (const [name, value] of Object.entries(res.headers)) {
              for (const v of Array.isArray(value) ? value : value === undefined ? [] : [value])
                headers.append(name, v);
            }
            const empty = status === 204 || status === 205 || status === 304 || options.method === 'HEAD';
            resolve(new Response(empty ? null : Buffer.concat(chunks), { status, headers }));
          });
        },
      );
      req.on('error', reject);
      req.end(body);
    });
  };
}
