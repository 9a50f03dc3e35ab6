import type { ImportEntry } from '../schemas/knowledge';

/** PRODUCT §5 import form formats ('manual' is plain text). */
export const IMPORT_FORMATS = ['csv', 'json', 'manual'] as const;
export type ImportFormat = (typeof IMPORT_FORMATS)[number];

/** An entry as a parser produces it: every field filled in. */
export type ParsedEntry = Required<Pick<ImportEntry, 'question' | 'answer'>> & {
  tags: string[];
  source: string;
  confidence: number;
};

/** The only error a parser throws; its message is shown as is in the 'Parse Error' toast. */
export class ImportParseError extends Error {
  constructor(message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = 'ImportParseError';
  }
}

export type ParseOptions = {
  /** Clock for the default source label (tests pass a fixed one). */
  now?: Date;
};
