import { ENCRYPTED_OFFICE_MESSAGE, corruptMessage } from './messages';
import { QuestionnaireError } from './questionnaire/types';
import { DOCTYPE_MESSAGE, assertSafeZip } from './questionnaire/zip-guard';
import { ExtractionError } from './types';

/**
 * Throws an ExtractionError unless a .docx/.xlsx is safe to hand to a parser: the questionnaire intake's zip guard
 * (declared and real sizes, entry count, compression ratio, encryption, no DOCTYPE in XML parts), with its verdict
 * reworded for the library. Without it, the JSZip inside exceljs and mammoth inflates a 3 MB file to a gigabyte of
 * memory outside the thread's heap limit before failing.
 */
export function assertSafeOfficeFile(bytes: Uint8Array, kind: 'docx' | 'xlsx'): void {
  try {
    assertSafeZip(bytes);
  } catch (error) {
    if (!(error instanceof QuestionnaireError)) throw error;
    switch (error.reason) {
      case 'too_large':
        throw new ExtractionError('too_large', error.message, { cause: error });
      case 'encrypted':
        throw new ExtractionError('encrypted', ENCRYPTED_OFFICE_MESSAGE, { cause: error });
      default:
        throw new ExtractionError(
          'corrupt',
          error.message === DOCTYPE_MESSAGE ? DOCTYPE_MESSAGE : corruptMessage(kind),
          { cause: error },
        );
    }
  }
}
