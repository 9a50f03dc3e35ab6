import { FolderOpen, SearchX, Upload } from 'lucide-react';
import { Button } from '../../../components/ui/button';
import { EmptyState } from '../../../components/ui/empty-state';
import { openUploadWidget } from '../upload/upload-widget-store';

interface DocumentsEmptyStateProps {
  /** A search or type filter is narrowing the list. */
  filtered: boolean;
  canUpload: boolean;
  onClearFilters: () => void;
}

/** Why the list is empty: nothing uploaded yet, or nothing matching the search and type. */
export function DocumentsEmptyState({ filtered, canUpload, onClearFilters }: DocumentsEmptyStateProps) {
  if (filtered) {
    return (
      <EmptyState
        icon={<SearchX aria-hidden />}
        title="No matching documents found"
        description="Try another name or tag, or show every type."
        actions={
          <Button variant="outline" onClick={onClearFilters}>
            Clear filters
          </Button>
        }
      />
    );
  }
  return (
    <EmptyState
      icon={<FolderOpen aria-hidden />}
      title="No documents yet"
      description={
        canUpload
          ? 'Upload policies, reports and other files with Upload Files in the sidebar. Verity reads their text so answers can cite them.'
          : 'Contributors, managers and admins can upload policies and reports. Their text then helps answer questions.'
      }
      actions={
        canUpload && (
          <Button onClick={openUploadWidget}>
            <Upload aria-hidden />
            Upload Files
          </Button>
        )
      }
    />
  );
}
