/** PRODUCT §12 business constants shared by server and web. */
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
/** The engine reads this much of a longer question (server/engine/text/question-bounds.ts); the answer notes it. */
export const RETRIEVAL_MAX_CHARS = 1000;
export const INVITATION_TTL_DAYS = 7;
export const PASSWORD_RESET_TTL_MINUTES = 60;

/** Knowledge library limits (PRODUCT §5 library form; the maxima are Verity's, chosen to keep imports bounded). */
export const LIBRARY_QUESTION_MIN = 10;
export const LIBRARY_ANSWER_MIN = 20;
export const ANSWER_MAX_LENGTH = 20_000;
export const TAG_MAX_LENGTH = 60;
export const TAGS_MAX = 30;
export const SOURCE_MAX_LENGTH = 300;
/** One import call holds at most this many entries; bigger sheets are split by the user. */
export const IMPORT_MAX_ENTRIES = 10_000;
/** A request body of any JSON call without its own limit; larger bodies get 413 before they are parsed. */
export const DEFAULT_BODY_LIMIT = 256 * 1024;
/** Calls that take up to LIBRARY_PAGE_MAX ids (≈ 390 kB of UUIDs). */
export const ID_LIST_BODY_LIMIT = 1024 * 1024;
/** Body limit of the import call: 10,000 typical entries fit with room to spare. */
export const IMPORT_MAX_BYTES = 20 * 1024 * 1024;
/** PRODUCT §12 confidence defaults. */
export const CSV_IMPORT_CONFIDENCE = 85;
export const JSON_IMPORT_CONFIDENCE = 85;
export const TEXT_IMPORT_CONFIDENCE = 90;
export const LIBRARY_DISPLAY_CONFIDENCE = 90;
/** With "replace pre-filled answers", a customer's answer is replaced only by an answer at least this confident. */
export const PREFILLED_REPLACE_CONFIDENCE = 90;
/**
 * Headers of the columns the filled-in questionnaire adds when the customer's sheet has none for them; the import
 * preview names them too.
 */
export const ADDED_COLUMN_HEADERS = { response: 'Response', comments: 'Comments', source: 'Source' } as const;
export const LIBRARY_PAGE_DEFAULT = 1000;
export const LIBRARY_PAGE_MAX = 10_000;

/** PRODUCT §6/§12 upload limits. */
export const UPLOAD_MAX_FILES = 5;
export const UPLOAD_MAX_BYTES = 52_428_800;
export const UPLOAD_URL_TTL_SECONDS = 15 * 60;
export const DOCUMENT_NAME_MAX_LENGTH = 255;
