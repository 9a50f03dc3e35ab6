import { useState } from 'react';
import DashboardModal from '@uppy/react/dashboard-modal';
import '@uppy/core/css/style.min.css';
import '@uppy/dashboard/css/style.min.css';
import './upload-widget.css';
import { formatFileSize } from '../../../lib/format';
import { UPLOAD_MAX_BYTES, UPLOAD_MAX_FILES } from '../../../../common/constants';
import { createDocumentUploader } from '../upload/create-document-uploader';
import { closeUploadWidget, useUploadWidgetOpen } from '../upload/upload-widget-store';
import { useDocumentRegistration } from '../upload/use-document-registration';
import { DuplicateUploadDialog } from './duplicate-upload-dialog';

const NOTE = `Up to ${String(UPLOAD_MAX_FILES)} files, ${formatFileSize(UPLOAD_MAX_BYTES)} each: PDF, Word, Excel, CSV, text, Markdown, HTML or images.`;

/**
 * PRODUCT "Upload widget": Uppy's dashboard as a modal (Escape and the backdrop close it, Tab stays inside). Kept
 * mounted once opened, so uploads carry on while it is closed and reopening shows their state.
 */
export function UploadWidget() {
  // One Uppy for the session: its files and uploads outlive the modal being shown.
  const [uploader] = useState(createDocumentUploader);
  const open = useUploadWidgetOpen();
  const { retryUseless } = useDocumentRegistration(uploader);

  return (
    <>
      <DashboardModal
        uppy={uploader.uppy}
        open={open}
        onRequestClose={closeUploadWidget}
        closeModalOnClickOutside
        proudlyDisplayPoweredByUppy={false}
        note={NOTE}
        // A lone file keeps the same small tile as several, instead of a preview filling the window.
        singleFileFullScreen={false}
        theme="light"
        className={
          retryUseless ? 'uppy-Container verity-upload verity-upload--no-retry' : 'uppy-Container verity-upload'
        }
        // A refused file (damaged, unsupported) would be refused again: no Retry for it.
        hideRetryButton={retryUseless}
      />
      <DuplicateUploadDialog />
    </>
  );
}
