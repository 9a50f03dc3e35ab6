/** An error a user can act on: its status, a machine code and a sentence. Thrown by services, sent by the handler. */
export class AppError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly details?: unknown,
  ) {
    super(message);
    this.name = 'AppError';
  }
}

export const badRequest = (message: string, details?: unknown) =>
  new AppError(400, 'validation_error', message, details);
export const unauthenticated = () => new AppError(401, 'unauthenticated', 'Not authenticated');
export const forbidden = (message: string) => new AppError(403, 'forbidden', message);
/** Also the answer for another tenant's id: its existence is not revealed. */
export const notFound = (what: string) => new AppError(404, 'not_found', `${what} not found`);
/**
 * Some ids of a multi-select action are not the caller's (deleted meanwhile, or another tenant's): the whole action
 * is refused, like a single unknown id, rather than silently done for the rest.
 */
export const selectionNotFound = (missing: number, things: string, screen: string) =>
  new AppError(
    404,
    'not_found',
    `${missing} of the selected ${things} ${missing === 1 ? 'was' : 'were'} not found. Refresh ${screen} and try again.`,
  );
export const conflict = (message: string) => new AppError(409, 'conflict', message);

/** 429 with the seconds to wait, sent as Retry-After (RFC 9110 §10.2.3). */
export class RateLimited extends AppError {
  constructor(
    message: string,
    readonly retryAfterSeconds: number,
  ) {
    super(429, 'rate_limited', message);
  }
}

/**
 * An upload refused before its body was read (too large, over the quota): the answer closes the connection, since
 * the client may still be sending and nobody is owed an answer for the rest.
 */
export class BodyRefused extends AppError {
  constructor(refusal: AppError) {
    super(refusal.status, refusal.code, refusal.message, refusal.details);
  }
}
