import type { z } from 'zod';
import { UploadUrlView, type UploadUrlBody } from '../../../../common/schemas/documents';
import { api } from '../../../lib/api';

/**
 * A signed target for one direct PUT of a file, valid 15 minutes. Sending the size lets an S3 link sign the
 * length too; the server caps every upload at 50 MB either way.
 */
export function getUploadUrl(body: z.input<typeof UploadUrlBody>): Promise<UploadUrlView> {
  return api.post('/api/objects/upload', UploadUrlView, body, { errorFallback: 'Upload failed' });
}
