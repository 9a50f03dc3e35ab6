import { describe, expect, it } from 'vitest';
import type { ApiTokenView } from '../../../../common/schemas/api-tokens';
import { maskedToken, tokenStatus } from './token-status';

const NOW = Date.parse('2025-06-01T12:00:00Z');

function token(overrides: Partial<ApiTokenView>): ApiTokenView {
  return {
    id: 't',
    name: 'CI',
    role: 'viewer',
    prefix: 'vrt_abc123',
    createdBy: 'ada',
    createdAt: '2025-01-01T00:00:00Z',
    expiresAt: null,
    lastUsedAt: null,
    revokedAt: null,
    ...overrides,
  };
}

describe('tokenStatus', () => {
  it('is active without an expiry, or before it', () => {
    expect(tokenStatus(token({}), NOW)).toBe('active');
    expect(tokenStatus(token({ expiresAt: '2025-06-01T12:00:01Z' }), NOW)).toBe('active');
  });

  it('is expired from the moment of expiry on', () => {
    expect(tokenStatus(token({ expiresAt: '2025-06-01T12:00:00Z' }), NOW)).toBe('expired');
    expect(tokenStatus(token({ expiresAt: '2024-12-31T00:00:00Z' }), NOW)).toBe('expired');
  });

  it('is revoked once revoked, even when it has also expired', () => {
    expect(tokenStatus(token({ revokedAt: '2025-05-01T00:00:00Z' }), NOW)).toBe('revoked');
    expect(tokenStatus(token({ revokedAt: '2025-05-01T00:00:00Z', expiresAt: '2025-05-02T00:00:00Z' }), NOW)).toBe(
      'revoked',
    );
  });
});

describe('maskedToken', () => {
  it('shows the prefix and an ellipsis, never more', () => {
    expect(maskedToken({ prefix: 'vrt_abc123' })).toBe('vrt_abc123…');
  });
});
