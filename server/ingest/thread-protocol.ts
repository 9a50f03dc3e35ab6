import type { ExtractedDocument } from './types';

/** Sent to an extraction thread: one file to extract. */
export type ExtractionRequest = { id: number; bytes: Uint8Array; originalName: string };

/** An error as it crosses the thread boundary (class identity does not survive structured cloning). */
export type SerializedError = { name: string; message: string; code?: string; stack?: string };

/** Sent back by an extraction thread for each request. */
export type ExtractionReply =
  { id: number; ok: true; result: ExtractedDocument } | { id: number; ok: false; error: SerializedError };

/** Keeps what a caller needs from an error: its class name, code (for ExtractionError), message and stack. */
export function serializeError(error: unknown): SerializedError {
  if (!(error instanceof Error)) return { name: 'Error', message: String(error) };
  const code = (error as { code?: unknown }).code;
  return {
    name: error.name,
    message: error.message,
    ...(typeof code === 'string' ? { code } : {}),
    ...(error.stack !== undefined ? { stack: error.stack } : {}),
  };
}
