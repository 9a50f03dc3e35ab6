import type { FastifyRequest } from 'fastify';
import { ASSESSMENT_FILE_MAX_BYTES, ImportFileFields } from '../../common/schemas/assessments';
import { hasInvisibleCharacters, INVISIBLE_NAME_MESSAGE } from '../../common/file-names';
import { AppError, badRequest } from '../errors';
import type { QuestionnaireUpload } from '../modules/assessments/service';

const MAX_MB = ASSESSMENT_FILE_MAX_BYTES / 1024 / 1024;

/**
 * The multipart body of a questionnaire import or preview: one `file` part and text fields. The file is read into
 * memory (at most ASSESSMENT_FILE_MAX_BYTES) because every questionnaire format needs random access to parse.
 */
export async function readQuestionnaireUpload(req: FastifyRequest): Promise<QuestionnaireUpload> {
  if (!req.isMultipart()) throw badRequest('Send the questionnaire as multipart/form-data with a "file" part');
  let file: { bytes: Uint8Array; fileName: string } | null = null;
  const raw: Record<string, string> = {};
  try {
    for await (const part of req.parts()) {
      if (part.type === 'file') {
        if (part.fieldname !== 'file' || file) {
          await part.toBuffer();
          throw badRequest('Send exactly one file, in the "file" part');
        }
        const bytes = await part.toBuffer();
        file = { bytes: new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength), fileName: part.filename };
      } else if (typeof part.value === 'string') {
        raw[part.fieldname] = part.value;
      }
    }
  } catch (err) {
    if (err instanceof AppError) throw err;
    const code = (err as { code?: string }).code;
    if (code === 'FST_REQ_FILE_TOO_LARGE') {
      throw new AppError(
        413,
        'payload_too_large',
        `The file is larger than ${MAX_MB} MB. Split it into smaller files.`,
      );
    }
    if (code === 'FST_FILES_LIMIT' || code === 'FST_FIELDS_LIMIT' || code === 'FST_PARTS_LIMIT') {
      throw badRequest('Too many parts: send one file and the form fields');
    }
    throw badRequest('The upload could not be read. Try again.');
  }
  if (!file) throw badRequest('Please select a file to import');
  // PostgreSQL cannot store NUL: refused here with a sentence, never left to fail as SQL.
  if (Object.entries(raw).some(([k, v]) => k.includes('\u0000') || v.includes('\u0000'))) {
    throw badRequest('Form fields cannot contain NUL characters.');
  }
  if (hasInvisibleCharacters(file.fileName)) throw badRequest(INVISIBLE_NAME_MESSAGE);
  if (file.bytes.byteLength === 0) throw badRequest('The file is empty.');
  const fields = ImportFileFields.safeParse(raw);
  if (!fields.success) throw badRequest(fields.error.issues[0]?.message ?? 'Invalid form fields');
  return { ...file, fields: fields.data };
}
