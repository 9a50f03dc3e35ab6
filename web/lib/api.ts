import type { z } from 'zod';
import { WORKSPACE_HEADER } from '../../common/constants';

/** A non-OK response (or an unreachable server), shaped by PRODUCT §11's error rules. */
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
  /** Sent as JSON; a FormData is sent as multipart/form-data. */
  body?: unknown;
  /**
   * Read the failure body's `error` field and fall back to this sentence when there is none (PRODUCT §11, e.g.
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

function requestHeaders(options: RequestOptions, accept: string): Record<string, string> {
  const headers: Record<string, string> = { Accept: accept, ...options.headers };
  // A FormData body carries its own multipart Content-Type with the boundary, which only the browser can write.
  if (options.body !== undefined && !(options.body instanceof FormData)) headers['Content-Type'] = 'application/json';
  if (currentWorkspaceId) headers[WORKSPACE_HEADER] = currentWorkspaceId;
  return headers;
}

/** JSON for plain values; a FormData (a multipart upload) goes as it is. */
function encodeBody(body: unknown): FormData | string | null {
  if (body === undefined) return null;
  return body instanceof FormData ? body : JSON.stringify(body);
}

/** Sends a request and returns the OK response; any failure is thrown as an ApiRequestError. */
async function send(method: Method, path: string, options: RequestOptions, accept: string): Promise<Response> {
  let response: Response;
  try {
    response = await fetch(path, {
      method,
      headers: requestHeaders(options, accept),
      credentials: 'include',
      body: encodeBody(options.body),
      signal: options.signal,
    });
  } catch (error) {
    if (error instanceof DOMException && error.name === 'AbortError') throw error;
    throw new ApiRequestError(
      0,
      options.errorFallback ?? 'Could not reach the server. Check your connection.',
      'network_error',
    );
  }
  if (!response.ok) throw await toRequestError(response, options.errorFallback);
  return response;
}

function checkBody<T>(method: Method, path: string, status: number, schema: z.ZodType<T>, body: unknown): T {
  const result = schema.safeParse(body);
  if (!result.success) {
    // A shape mismatch is a client/server version skew, not something the user can fix; keep the detail in the console.
    console.error(`Unexpected response from ${method} ${path}`, result.error);
    throw new ApiRequestError(status, 'Unexpected response from the server', 'invalid_response');
  }
  return result.data;
}

/**
 * The one way the web app talks to the API: cookie credentials, JSON bodies, the current workspace header and
 * PRODUCT §11 errors. The zod schema checks the body and types the result; pass `z.unknown()` when the body is unused.
 */
export async function apiFetch<T>(
  method: Method,
  path: string,
  schema: z.ZodType<T>,
  options: RequestOptions = {},
): Promise<T> {
  return (await apiFetchWithHeaders(method, path, schema, options)).data;
}

/** `apiFetch` for calls whose response headers carry part of the answer (e.g. a list's X-Total-Count). */
export async function apiFetchWithHeaders<T>(
  method: Method,
  path: string,
  schema: z.ZodType<T>,
  options: RequestOptions = {},
): Promise<{ data: T; headers: Headers }> {
  const response = await send(method, path, options, 'application/json');
  const data = checkBody(method, path, response.status, schema, await readBody(response));
  return { data, headers: response.headers };
}

/** A file the server sent as an attachment. */
export interface DownloadedFile {
  blob: Blob;
  /** From Content-Disposition; `fallbackName` when the server named none. */
  filename: string;
}

/** The filename of a Content-Disposition header, preferring the RFC 5987 `filename*` form. */
function filenameFrom(disposition: string | null): string | null {
  if (!disposition) return null;
  const extended = /filename\*\s*=\s*(?:UTF-8|utf-8)''([^;]+)/.exec(disposition)?.[1];
  if (extended) {
    try {
      return decodeURIComponent(extended.trim());
    } catch {
      // A malformed escape: fall through to the plain form.
    }
  }
  const plain = /filename\s*=\s*"?([^";]+)"?/.exec(disposition)?.[1];
  return plain?.trim() || null;
}

/** POSTs (or GETs) with the API client's rules and returns the response as a file rather than JSON. */
export async function apiDownload(
  method: Method,
  path: string,
  fallbackName: string,
  options: RequestOptions = {},
): Promise<DownloadedFile> {
  const response = await send(method, path, options, '*/*');
  const blob = await response.blob();
  return { blob, filename: filenameFrom(response.headers.get('content-disposition')) ?? fallbackName };
}

/** Hands a downloaded file to the browser as a download. */
export function saveFile({ blob, filename }: DownloadedFile): void {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = filename;
  link.rel = 'noopener';
  document.body.append(link);
  link.click();
  link.remove();
  // Revoking at once can cancel the download in some browsers; a later tick is enough.
  setTimeout(() => URL.revokeObjectURL(url), 30_000);
}

export interface UploadProgressOptions extends RequestOptions {
  /** Called with 0–100 as the body is sent; 100 only once the response has arrived. */
  onProgress?: (percent: number) => void;
}

/**
 * `apiFetch` over XMLHttpRequest, because fetch cannot report upload progress. The percentage is the real share of
 * the body sent; the response's arrival is the final 100.
 */
export function apiFetchWithProgress<T>(
  method: Method,
  path: string,
  schema: z.ZodType<T>,
  options: UploadProgressOptions = {},
): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open(method, path);
    xhr.withCredentials = true;
    for (const [name, value] of Object.entries(requestHeaders(options, 'application/json'))) {
      xhr.setRequestHeader(name, value);
    }
    const { onProgress, signal } = options;
    if (onProgress) {
      xhr.upload.onprogress = (event) => {
        // The last byte sent is not the end: the server still has to store the data. Hold 99 until it answers.
        if (event.lengthComputable && event.total > 0) onProgress(Math.min(99, (event.loaded / event.total) * 100));
      };
    }
    const onAbort = () => xhr.abort();
    signal?.addEventListener('abort', onAbort, { once: true });
    const done = () => signal?.removeEventListener('abort', onAbort);

    xhr.onabort = () => {
      done();
      reject(new DOMException('The request was aborted', 'AbortError'));
    };
    xhr.onerror = () => {
      done();
      reject(
        new ApiRequestError(
          0,
          options.errorFallback ?? 'Could not reach the server. Check your connection.',
          'network_error',
        ),
      );
    };
    xhr.onload = () => {
      done();
      // A Response gives the same error and body rules as fetch-based calls.
      const nullBody = xhr.status === 204 || xhr.status === 205 || xhr.status === 304;
      const response = new Response(nullBody ? null : xhr.responseText, {
        status: xhr.status,
        statusText: xhr.statusText,
        headers: { 'content-type': xhr.getResponseHeader('content-type') ?? '' },
      });
      if (!response.ok) {
        void toRequestError(response, options.errorFallback).then(reject, reject);
        return;
      }
      readBody(response)
        .then((body) => {
          onProgress?.(100);
          resolve(checkBody(method, path, response.status, schema, body));
        })
        .catch(reject);
    };
    xhr.send(encodeBody(options.body));
  });
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
  /** A multipart/form-data POST (a file upload); the browser sets the Content-Type with its boundary. */
  postForm: <T>(path: string, schema: z.ZodType<T>, form: FormData, options?: Omit<RequestOptions, 'body'>) =>
    apiFetch('POST', path, schema, { ...options, body: form }),
  del: <T>(path: string, schema: z.ZodType<T>, options?: Omit<RequestOptions, 'body'>) =>
    apiFetch('DELETE', path, schema, options),
};
