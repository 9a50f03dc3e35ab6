import type { LoggerOptions } from 'pino';

// Query parameters that carry a secret: reset and invitation links, signed upload URLs, S3 presigned URLs.
const SECRET_PARAMS = /([?&](?:token|invite|sig|signature|X-Amz-Signature|X-Amz-Credential)=)[^&#]*/gi;
// Path segments that are secrets: GET /api/auth/invitations/:token.
const SECRET_PATHS = /(\/api\/auth\/invitations\/)[^/?#]+/gi;

/**
 * Letters, digits and `-._~` written as `%XX` read as themselves: the router and the query parser decode them, so
 * `/%61pi/auth/invitations/…` and `?%74oken=…` carry the same secrets. Separators (`/?&#=`) stay encoded, so the
 * shape of the address does not change.
 */
const decodeUnreserved = (url: string) =>
  url.replace(/%([0-9a-f]{2})/gi, (escape, hex: string) => {
    const c = String.fromCharCode(parseInt(hex, 16));
    return /[A-Za-z0-9._~-]/.test(c) ? c : escape;
  });

/** A URL fit for a log line: secrets in its path or query are replaced by `[REDACTED]`. */
export function redactUrl(url: string): string {
  return decodeUnreserved(url).replace(SECRET_PATHS, '$1[REDACTED]').replace(SECRET_PARAMS, '$1[REDACTED]');
}

type LoggedRequest = {
  method?: string;
  url?: string;
  host?: string;
  ip?: string;
};

/**
 * Pino options for every Verity process. Request lines keep method, path and caller but never a secret:
 * cookies, Authorization headers and passwords are redacted wherever they appear, and tokens in URLs are cut out.
 */
export function logOptions(level: string): LoggerOptions {
  return {
    level,
    redact: {
      paths: [
        'req.headers.cookie',
        'req.headers.authorization',
        'res.headers["set-cookie"]',
        'headers.cookie',
        'headers.authorization',
        '*.password',
        '*.newPassword',
        '*.currentPassword',
        '*.token',
        '*.clientSecret',
        '*.apiKey',
      ],
      censor: '[REDACTED]',
    },
    serializers: {
      req: (req: LoggedRequest) => ({
        method: req.method,
        url: req.url === undefined ? undefined : redactUrl(req.url),
        host: req.host,
        remoteAddress: req.ip,
      }),
    },
  };
}
