import type { ApiTokenView } from '../../../../common/schemas/api-tokens';
import type { BadgeVariant } from '../../../components/ui/badge';

export type TokenStatus = 'active' | 'revoked' | 'expired';

/** Revoked wins over expired: it is the admin's deliberate act, and it stays true whatever the clock says. */
export function tokenStatus(token: ApiTokenView, now: number): TokenStatus {
  if (token.revokedAt) return 'revoked';
  if (token.expiresAt && new Date(token.expiresAt).getTime() <= now) return 'expired';
  return 'active';
}

export const STATUS_BADGES: Record<TokenStatus, { label: string; variant: BadgeVariant }> = {
  active: { label: 'Active', variant: 'success' },
  revoked: { label: 'Revoked', variant: 'destructive' },
  expired: { label: 'Expired', variant: 'secondary' },
};

/** `vrt_abc123…`: enough to tell tokens apart, and visibly not the whole secret. */
export function maskedToken(token: Pick<ApiTokenView, 'prefix'>): string {
  return `${token.prefix}…`;
}
