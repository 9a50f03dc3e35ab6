import Uppy, { type Meta, type UppyFile } from '@uppy/core';
import AwsS3, { type AwsBody } from '@uppy/aws-s3';
import { UPLOAD_MAX_BYTES, UPLOAD_MAX_FILES } from '../../../../common/constants';
import { getUploadUrl } from '../api/get-upload-url';

export type DocumentUppy = Uppy<Meta, AwsBody>;
export type DocumentUppyFile = UppyFile<Meta, AwsBody>;

/** What the server can read text from (server/ingest); anything else would only be refused after the upload. */
export const ALLOWED_UPLOAD_TYPES = [
  '.pdf',
  '.docx',
  '.xlsx',
  '.csv',
  '.txt',
  '.md',
  '.html',
  '.htm',
  '.png',
  '.jpg',
  '.jpeg',
  '.webp',
];

const GENERIC_BINARY = 'application/octet-stream';

/** The file's own type, or PRODUCT §6's generic binary fallback (the server judges the type from the content anyway). */
export function contentTypeOf(file: Pick<DocumentUppyFile, 'type'>): string {
  return file.type || GENERIC_BINARY;
}

export interface DocumentUploader {
  uppy: DocumentUppy;
  /** The signed target each file was last PUT to: registration names it as the documentURL. */
  uploadUrls: Map<string, string>;
}

/**
 * An Uppy instance for the specification's upload widget: at most 5 files of 50 MB, no automatic start, each file sent with one
 * PUT to a signed URL from POST /api/objects/upload (the local driver's own endpoint or a presigned S3 URL).
 */
export function createDocumentUploader(): DocumentUploader {
  const uploadUrls = new Map<string, string>();
  const uppy: DocumentUppy = new Uppy<Meta, AwsBody>({
    id: 'documents',
    autoProceed: false,
    restrictions: {
      maxNumberOfFiles: UPLOAD_MAX_FILES,
      maxFileSize: UPLOAD_MAX_BYTES,
      allowedFileTypes: ALLOWED_UPLOAD_TYPES,
    },
  });

  uppy.use(AwsS3, {
    // The server signs single PUTs only (PRODUCT §6); 50 MB never needs parts.
    shouldUseMultipart: false,
    limit: UPLOAD_MAX_FILES,
    // The key only has to lead signRequest back to the file: the server chooses the stored object's key itself.
    generateObjectKey: (file) => file.id,
    signRequest: async (request) => {
      const file = uppy.getFile(request.key) as DocumentUppyFile | undefined;
      if (!file) throw new Error('The file was removed before its upload started.');
      // Each attempt (a retry too) gets a fresh link: a used or expired one is refused.
      const { uploadURL } = await getUploadUrl({ size: file.size ?? undefined });
      uploadUrls.set(file.id, uploadURL);
      return { url: uploadURL, headers: { 'content-type': contentTypeOf(file) } };
    },
  });

  uppy.on('file-removed', (file) => uploadUrls.delete(file.id));
  return { uppy, uploadUrls };
}
