import { useEffect } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import type { Meta, UploadResult } from '@uppy/core';
import type { AwsBody } from '@uppy/aws-s3';
import { toast } from '../../../components/ui/use-toast';
import { errorMessage } from '../../../lib/api';
import { registerDocument } from '../api/register-document';
import {
  contentTypeOf,
  type DocumentUploader,
  type DocumentUppy,
  type DocumentUppyFile,
} from './create-document-uploader';
import { closeUploadWidget } from './upload-widget-store';
import { invalidateDocuments } from '../../../app/invalidate';

/** PRODUCT §6: every file uploaded through the widget carries this tag. */
const UPLOAD_TAG = 'uploaded';

/** Shows `message` on the file in the widget (with its details button) and lets Retry upload it afresh. */
function markFailed(uppy: DocumentUppy, file: DocumentUppyFile, message: string): void {
  uppy.emit('upload-error', file, new Error(message));
  const current = uppy.getFile(file.id) as DocumentUppyFile | undefined;
  if (!current) return;
  // Retry skips files whose bytes arrived. The server deletes a refused upload, so a retry must send it again.
  if (current.progress.uploadStarted === null) return;
  uppy.setFileState(file.id, {
    progress: { ...current.progress, uploadComplete: false, percentage: 0, bytesUploaded: 0 },
  });
}

/**
 * The server's sentence in a failed PUT's JSON body ("The upload link has expired…"), instead of Uppy's
 * "S3 returned 403".
 */
function serverSentence(error: { message: string }): string | null {
  if (!('body' in error) || typeof error.body !== 'string') return null;
  try {
    const parsed: unknown = JSON.parse(error.body);
    if (typeof parsed === 'object' && parsed !== null && 'error' in parsed && typeof parsed.error === 'string') {
      return parsed.error || null;
    }
  } catch {
    // Not JSON (an S3 XML error): Uppy's own message stays.
  }
  return null;
}

function completionToast(result: UploadResult<Meta, AwsBody>): void {
  const done = result.successful ?? [];
  const failed = result.failed ?? [];
  if (done.length > 0) {
    const names = done.length === 1 ? `${done[0]?.name ?? 'The file'} is` : `${String(done.length)} files are`;
    const failures =
      failed.length > 0
        ? ` ${String(failed.length)} ${failed.length === 1 ? 'file' : 'files'} could not be uploaded: see the upload window.`
        : '';
    toast({
      title: 'Document uploaded successfully',
      description: `${names} being processed.${failures}`,
      variant: 'success',
    });
    return;
  }
  const first = failed[0];
  if (!first) return;
  toast({
    title: 'Upload failed',
    description:
      failed.length === 1
        ? (first.error ?? 'Upload failed')
        : `${String(failed.length)} files could not be uploaded. See the upload window for each reason.`,
    variant: 'destructive',
  });
}

/**
 * Registers each uploaded file as a document (PUT /api/documents) as Uppy's post-processing step, so the widget's
 * bar reads "postprocessing" meanwhile and a refused file ends up failed with the server's reason. After a batch
 * with at least one success the lists and stats refresh; when every file made it the widget closes and empties.
 */
export function useDocumentRegistration({ uppy, uploadUrls }: DocumentUploader): void {
  const queryClient = useQueryClient();

  useEffect(() => {
    // Upload links already registered, so no upload is registered twice. Keyed by link, not by Uppy's file id:
    // the id is derived from the file's name and size, and the same file uploaded again later must register again.
    const registered = new Set<string>();

    const register = async (fileIDs: string[]) => {
      const files = uppy.getFilesByIds(fileIDs).filter((file) => {
        const url = uploadUrls.get(file.id);
        return file.progress.uploadComplete && !file.error && !(url && registered.has(url));
      });
      await Promise.all(
        files.map(async (file) => {
          uppy.emit('postprocess-progress', file, { mode: 'indeterminate', message: 'Registering document...' });
          const documentURL = uploadUrls.get(file.id);
          try {
            if (!documentURL) throw new Error('Upload failed');
            await registerDocument({
              documentURL,
              originalName: file.name ?? 'document',
              mimeType: contentTypeOf(file),
              size: file.size ?? 0,
              tags: [UPLOAD_TAG],
            });
            registered.add(documentURL);
            uppy.emit('postprocess-complete', file);
          } catch (error) {
            uppy.emit('postprocess-complete', file);
            markFailed(uppy, file, errorMessage(error, 'Upload failed'));
          }
        }),
      );
    };

    const onUploadError: Parameters<typeof uppy.on<'upload-error'>>[1] = (file, error) => {
      const sentence = serverSentence(error);
      if (!file || !sentence || !uppy.getFile(file.id)) return;
      uppy.setFileState(file.id, { error: sentence });
      uppy.info({ message: `Failed to upload ${file.name ?? 'the file'}`, details: sentence }, 'error', 5000);
    };

    const onComplete = (result: UploadResult<Meta, AwsBody>) => {
      completionToast(result);
      if ((result.successful ?? []).length === 0) return;
      void invalidateDocuments(queryClient);
      if ((result.failed ?? []).length > 0) return;
      closeUploadWidget();
      try {
        uppy.clear();
        uploadUrls.clear();
      } catch {
        // Another batch is still running; its files stay in the widget.
      }
    };

    uppy.addPostProcessor(register);
    uppy.on('upload-error', onUploadError);
    uppy.on('complete', onComplete);
    return () => {
      uppy.removePostProcessor(register);
      uppy.off('upload-error', onUploadError);
      uppy.off('complete', onComplete);
    };
  }, [uppy, uploadUrls, queryClient]);
}
