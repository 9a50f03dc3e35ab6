import { isApiRequestError } from './api';

/**
 * The server's sentence about one form field, when a 400 names it in `details.issues` (the same shape as a schema
 * failure): checks only the server can make, such as "this password is too common", land under their field.
 */
export function serverFieldError(error: unknown, field: string): string | undefined {
  if (!isApiRequestError(error) || error.code !== 'validation_error') return undefined;
  const details = error.details;
  if (typeof details !== 'object' || details === null || !('issues' in details)) return undefined;
  const issues = details.issues;
  if (!Array.isArray(issues)) return undefined;
  for (const issue of issues as unknown[]) {
    if (typeof issue !== 'object' || issue === null) continue;
    const { field: name, message } = issue as { field?: unknown; message?: unknown };
    if (name === field && typeof message === 'string') return message;
  }
  return undefined;
}
