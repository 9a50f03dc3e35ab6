import { useEffect, useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import type { Meta, UploadResult } from '@uppy/core';
import type { AwsBody } from '@uppy/aws-s3';
import { toast } from '../../../components/ui/use-toast';
import { DuplicateDocumentDetails } from '../../../../common/schemas/documents';
import { errorMessage, isApiRequestError } from '../../../lib/api';
import { registerDocument } from '../api/register-document';
import {
  contentTypeOf,
  type DocumentUploader,
  type DocumentUppy,
  type DocumentUppyFile,
} from './create-document-uploader';
import { askDuplicateDecision } from './duplicate-choice-store';
import { closeUploadWidget, openUploadWidget } from './upload-widget-store';
import { invalidateDocuments } from '../../../app/invalidate';

/** PRODUCT §6: every file uploaded through the widget carries this tag. */
const UPLOAD_TAG = 'uploaded';

/** Refusals of the file's content (damaged, empty, unsupported, too large): the same bytes fail the same way. */
const PERMANENT_CODES = new Set(['file_refused', 'payload_too_large']);

function isPermanent(error: unknown): boolean {
  return isApiRequestError(error) && error.code !== null && PERMANENT_CODES.has(error.code);
}

/** The document that already has these bytes, when registration was refused as a duplicate. */
function duplicateOf(error: unknown): DuplicateDocumentDetails | null {
  if (!isApiRequestError(error) || error.code !== 'duplicate_document') return null;
  const details = DuplicateDocumentDetails.safeParse(error.details);
  return details.success ? details.data : null;
}

/**
 * Shows `message` on the file in the widget. Its progress is reset so the widget's Cancel clears it and, for a
 * failure Retry can mend (an expired link, a lost connection), Retry uploads it afresh; for a refusal of the content
 * the widget hides Retry instead (see retryUseless).
 */
function markFailed(uppy: DocumentUppy, file: DocumentUppyFile, message: string): void {
  uppy.emit('upload-error', file, new Error(message));
  // Uppy answers an upload error with a "Failed to upload…" bubble over the files; the reason is already shown on
  // the file and the status bar says "Upload failed", so the bubble would only be a third message on top of them.
  uppy.hideInfo();
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

interface BatchOutcome {
  /** Duplicates the user chose not to add: Uppy counts them as successful. */
  skipped: ReadonlySet<string>;
  /** Duplicates that replaced the existing document's name and tags. */
  replaced: ReadonlySet<string>;
}

function completionToast(result: UploadResult<Meta, AwsBody>, outcome: BatchOutcome): void {
  const done = (result.successful ?? []).filter((file) => !outcome.skipped.has(file.id));
  const failed = result.failed ?? [];
  if (done.length > 0) {
    const allReplaced = done.every((file) => outcome.replaced.has(file.id));
    const names = done.length === 1 ? `${done[0]?.name ?? 'The file'} is` : `${String(done.length)} files are`;
    const failures =
      failed.length > 0
        ? ` ${String(failed.length)} ${failed.length === 1 ? 'file' : 'files'} could not be uploaded: see the upload window.`
        : '';
    toast({
      title: allReplaced ? 'Document replaced' : 'Document uploaded successfully',
      description: allReplaced
        ? `The library keeps one copy, now named ${done.length === 1 ? (done[0]?.name ?? 'as uploaded') : 'as uploaded'}.${failures}`
        : `${names} being processed.${failures}`,
      variant: 'success',
    });
    return;
  }
  const first = failed[0];
  if (!first) {
    if (outcome.skipped.size > 0) toast({ title: 'Nothing added', description: 'The library already has this file.' });
    return;
  }
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
export function useDocumentRegistration({ uppy, uploadUrls }: DocumentUploader): { retryUseless: boolean } {
  const queryClient = useQueryClient();
  // Every failure of the last batch was a refusal of the content: Retry would only fail again, so it is hidden.
  const [retryUseless, setRetryUseless] = useState(false);

  useEffect(() => {
    // Upload links already registered, so no upload is registered twice. Keyed by link, not by Uppy's file id:
    // the id is derived from the file's name and size, and the same file uploaded again later must register again.
    const registered = new Set<string>();
    const permanent = new Set<string>();
    const skipped = new Set<string>();
    const replaced = new Set<string>();

    const registerOne = async (file: DocumentUppyFile) => {
      uppy.emit('postprocess-progress', file, { mode: 'indeterminate', message: 'Registering document...' });
      const documentURL = uploadUrls.get(file.id);
      const body = {
        documentURL: documentURL ?? '',
        originalName: file.name ?? 'document',
        mimeType: contentTypeOf(file),
        size: file.size ?? 0,
        tags: [UPLOAD_TAG],
        // The same bytes again: asked, never silently stored twice.
        ifDuplicate: 'ask' as const,
      };
      try {
        if (!documentURL) throw new Error('Upload failed');
        try {
          await registerDocument(body);
        } catch (error) {
          const twin = duplicateOf(error);
          if (!twin) throw error;
          // The question is asked in the app's own dialog, with the widget out of the way.
          closeUploadWidget();
          const decision = await askDuplicateDecision(body.originalName, twin.originalName);
          if (decision === 'skip') {
            skipped.add(file.id);
            uppy.emit('postprocess-complete', file);
            return;
          }
          await registerDocument({ ...body, ifDuplicate: decision });
          if (decision === 'replace') replaced.add(file.id);
        }
        registered.add(documentURL);
        uppy.emit('postprocess-complete', file);
      } catch (error) {
        uppy.emit('postprocess-complete', file);
        if (isPermanent(error)) permanent.add(file.id);
        markFailed(uppy, file, errorMessage(error, 'Upload failed'));
      }
    };

    const register = async (fileIDs: string[]) => {
      const files = uppy.getFilesByIds(fileIDs).filter((file) => {
        const url = uploadUrls.get(file.id);
        return file.progress.uploadComplete && !file.error && !(url && registered.has(url));
      });
      await Promise.all(files.map(registerOne));
    };

    const onUploadError: Parameters<typeof uppy.on<'upload-error'>>[1] = (file, error) => {
      const sentence = serverSentence(error);
      if (!file || !sentence || !uppy.getFile(file.id)) return;
      uppy.setFileState(file.id, { error: sentence });
      uppy.info({ message: `Failed to upload ${file.name ?? 'the file'}`, details: sentence }, 'error', 5000);
    };

    const onUpload = () => setRetryUseless(false);

    const onComplete = (result: UploadResult<Meta, AwsBody>) => {
      completionToast(result, { skipped, replaced });
      const failed = result.failed ?? [];
      setRetryUseless(failed.length > 0 && failed.every((file) => permanent.has(file.id)));
      if ((result.successful ?? []).length > 0) void invalidateDocuments(queryClient);
      if (failed.length > 0) {
        // Back in view (it may have closed for a duplicate question), with each reason on its file.
        openUploadWidget();
        return;
      }
      closeUploadWidget();
      skipped.clear();
      replaced.clear();
      try {
        uppy.clear();
        uploadUrls.clear();
      } catch {
        // Another batch is still running; its files stay in the widget.
      }
    };

    uppy.addPostProcessor(register);
    uppy.on('upload-error', onUploadError);
    uppy.on('upload', onUpload);
    uppy.on('complete', onComplete);
    return () => {
      uppy.removePostProcessor(register);
      uppy.off('upload-error', onUploadError);
      uppy.off('upload', onUpload);
      uppy.off('complete', onComplete);
    };
  }, [uppy, uploadUrls, queryClient]);

  return { retryUseless };
}
