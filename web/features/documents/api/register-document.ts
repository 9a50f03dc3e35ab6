import { DocumentView, type RegisterDocumentBody } from '../../../../common/schemas/documents';
import { api } from '../../../lib/api';

/**
 * Registers an uploaded file as a document; the server checks its type from the content and queues the text
 * extraction. Refusals (an unsupported type, an empty file) come back as sentences to show on the file.
 */
export function registerDocument(body: RegisterDocumentBody): Promise<DocumentView> {
  return api.put('/api/documents', DocumentView, body, { errorFallback: 'Upload failed' });
}
