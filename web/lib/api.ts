import type { z } from 'zod';
import { WORKSPACE_HEADER } from '../../common/constants';

/** A non-OK response (or an unreachable server), shaped by SPEC §8's error rules. */
export class ApiRequestError extends Error {
  readonly status: number;
  readonly code: string | null;
  readonly details: unknown;

  constructor(status: number, message: string, code: string | null = null, details?: unknown) {
    super(message);
    this.name = 'ApiRequestError';
    this.status = status;
    this.code = code;
    this.details = details;
  }
}

export function isApiRequestError(error: unknown): error is ApiRequestError {
  return error instanceof ApiRequestError;
}

/** Any error as a sentence for the UI; `fallback` covers errors that carry no message. */
export function errorMessage(error: unknown, fallback: string): string {
  return error instanceof Error && error.message ? error.message : fallback;
}

// The selected workspace lives outside React so every request, including ones started by query invalidation in the
// same tick as a workspace switch, carries the new id.
// It is also a tiny external store so React can render from the very value the requests use.
let currentWorkspaceId: string | null = null;
const workspaceListeners = new Set<() => void>();

/** Sets the workspace sent in the X-Workspace-Id header (none when null). */
export function setApiWorkspaceId(id: string | null): void {
  if (id === currentWorkspaceId) return;
  currentWorkspaceId = id;
  for (const listener of workspaceListeners) listener();
}

export function getApiWorkspaceId(): string | null {
  return currentWorkspaceId;
}

export function subscribeApiWorkspaceId(listener: () => void): () => void {
  workspaceListeners.add(listener);
  return () => workspaceListeners.delete(listener);
}

export interface RequestOptions {
  body?: unknown;
  /**
   * Read the failure body's `error` field and fall back to this sentence when there is none (SPEC §8, e.g.
   * 'Login failed'). Without it the message is `${status}: ${responseText || statusText}`.
   */
  errorFallback?: string;
  signal?: AbortSignal;
  headers?: Record<string, string>;
}

type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

interface ErrorBody {
  error?: unknown;
  code?: unknown;
  details?: unknown;
}

function parseErrorBody(text: string): ErrorBody | null {
  try {
    const parsed: unknown = JSON.parse(text);
    return typeof parsed === 'object' && parsed !== null ? parsed : null;
  } catch {
    return null;
  }
}

async function toRequestError(response: Response, errorFallback: string | undefined): Promise<ApiRequestError> {
  const text = await response.text().catch(() => '');
  const body = parseErrorBody(text);
  const code = typeof body?.code === 'string' ? body.code : null;
  const bodyError = typeof body?.error === 'string' && body.error ? body.error : null;
  const message =
    errorFallback !== undefined
      ? (bodyError ?? errorFallback)
      : `${String(response.status)}: ${text || response.statusText}`;
  return new ApiRequestError(response.status, message, code, body?.details);
}

async function readBody(response: Response): Promise<unknown> {
  if (response.status === 204) return undefined;
  const text = await response.text();
  if (!text) return undefined;
  const type = response.headers.get('content-type') ?? '';
  return type.includes('application/json') ? (JSON.parse(text) as unknown) : text;
}

/**
 * The one way the web app talks to the API: cookie credentials, JSON bodies, the current workspace header and
 * SPEC §8 errors. The zod schema checks the body and types the result; pass `z.unknown()` when the body is unused.
 */
export async function apiFetch<T>(
  method: Method,
  path: string,
  schema: z.ZodType<T>,
  options: RequestOptions = {},
): Promise<T> {
  const headers: Record<string, string> = { Accept: 'application/json', ...options.headers };
  if (options.body !== undefined) headers['Content-Type'] = 'application/json';
  if (currentWorkspaceId) headers[WORKSPACE_HEADER] = currentWorkspaceId;

  let response: Response;
  try {
    response = await fetch(path, {
      method,
      headers,
      credentials: 'include',
      body: options.body === undefined ? undefined : JSON.stringify(options.body),
      signal: options.signal,
    });
  } catch (error) {
    if (error instanceof DOMException && error.name === 'AbortError') throw error;
    throw new ApiRequestError(0, options.errorFallback ?? 'Could not reach the server. Check your connection.', 'network_error');
  }

  if (!response.ok) throw await toRequestError(response, options.errorFallback);

  const result = schema.safeParse(await readBody(response));
  if (!result.success) {
    // A shape mismatch is a client/server version skew, not something the user can fix; keep the detail in the console.
    console.error(`Unexpected response from ${method} ${path}`, result.error);
    throw new ApiRequestError(response.status, 'Unexpected response from the server', 'invalid_response');
  }
  return result.data;
}

/** Shorthands for `apiFetch`. */
export const api = {
  get: <T>(path: string, schema: z.ZodType<T>, options?: Omit<RequestOptions, 'body'>) =>
    apiFetch('GET', path, schema, options),
  post: <T>(path: string, schema: z.ZodType<T>, body?: unknown, options?: Omit<RequestOptions, 'body'>) =>
    apiFetch('POST', path, schema, { ...options, body }),
  put: <T>(path: string, schema: z.ZodType<T>, body?: unknown, options?: Omit<RequestOptions, 'body'>) =>
    apiFetch('PUT', path, schema, { ...options, body }),
  patch: <T>(path: string, schema: z.ZodType<T>, body?: unknown, options?: Omit<RequestOptions, 'body'>) =>
    apiFetch('PATCH', path, schema, { ...options, body }),
  del: <T>(path: string, schema: z.ZodType<T>, options?: Omit<RequestOptions, 'body'>) =>
    apiFetch('DELETE', path, schema, options),
};
