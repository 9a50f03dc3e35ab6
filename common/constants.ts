/** SPEC §9 business constants shared by server and web. */
export const BRAND_TONES = [
  'professional',
  'friendly',
  'authoritative',
  'conversational',
  'technical',
  'approachable',
  'confident',
  'helpful',
  'concise',
  'detailed',
] as const;
export type BrandTone = (typeof BRAND_TONES)[number];

export const DEFAULT_BRAND_NAME = 'InfoSec Agent';
export const DEFAULT_WORKSPACE_NAME = 'Default';
export const AUTH_TOKEN_STORAGE_KEY = 'auth-token';
export const WORKSPACE_HEADER = 'X-Workspace-Id';
export const STATS_REFETCH_MS = 30_000;
export const QUESTION_MAX_LENGTH = 2000;
export const INVITATION_TTL_DAYS = 7;
export const PASSWORD_RESET_TTL_MINUTES = 60;
