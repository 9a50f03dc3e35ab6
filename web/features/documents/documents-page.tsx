import { useMemo, useState } from 'react';
import { useSearchParams } from 'react-router';
import { Download, LoaderCircle, Trash2 } from 'lucide-react';
import { SearchInput } from '../../components/ui/search-input';
import type { DocumentView } from '../../../common/schemas/documents';
import { Button } from '../../components/ui/button';
import { LoadError } from '../../components/ui/load-error';
import { Spinner } from '../../components/ui/spinner';
import { formatNumber } from '../../lib/format';
import { useDebouncedValue } from '../../lib/use-debounced-value';
import { useCan } from '../../app/me/use-can';
import type { DocumentFilter, DocumentTypeFilter } from './api/document-filter';
import { useDocuments } from './api/get-documents';
import { DeleteDocumentsDialog, type DeleteTarget } from './components/delete-documents-dialog';
import { DocumentCard, type DocumentCardHandlers } from './components/document-card';
import { DocumentTextDialog } from './components/document-text-dialog';
import { DocumentsEmptyState } from './components/documents-empty-state';
import { TypeFilter } from './components/type-filter';
import { citationFromParams, NO_CITATION, type CitedPassage } from './cited-passage';
import { useDocumentActions } from './use-document-actions';

/** Long enough to skip the keystrokes of a word being typed, short enough to feel live. */
const SEARCH_DEBOUNCE_MS = 300;

const NO_SELECTION: ReadonlySet<string> = new Set();

/** PRODUCT "Document Library (/documents)": the workspace's uploaded files and the text extracted from them. */
export function DocumentsPage() {
  const canUpload = useCan('documents:upload');
  const canDelete = useCan('documents:delete');
  const actions = useDocumentActions();

  const [search, setSearch] = useState('');
  const q = useDebouncedValue(search.trim(), SEARCH_DEBOUNCE_MS);
  const [type, setType] = useState<DocumentTypeFilter>('all');
  const filter = useMemo<DocumentFilter>(() => ({ q, type }), [q, type]);
  const query = useDocuments(filter);
  const documents = useMemo(() => query.data ?? [], [query.data]);

  const [selected, setSelected] = useState<ReadonlySet<string>>(NO_SELECTION);
  // An answer's document source links here with ?document=<id>&page=<n>&section=…&passage=…: open that document's
  // text at the cited passage (see documentPassagePath).
  const [searchParams, setSearchParams] = useSearchParams();
  const [readingId, setReadingId] = useState<string | null>(() => searchParams.get('document'));
  const [cited, setCited] = useState<CitedPassage>(() => citationFromParams(searchParams));
  const closeReading = () => {
    setReadingId(null);
    setCited(NO_CITATION);
    // Drop the link's parameters so a reload does not reopen the dialog.
    if (searchParams.has('document')) setSearchParams({}, { replace: true });
  };
  const [deleteTarget, setDeleteTarget] = useState<DeleteTarget | null>(null);

  // Only what is on screen counts as selected: a filter change never leaves hidden documents to be deleted.
  const selectedIds = useMemo(
    () => documents.filter((d) => selected.has(d.id)).map((d) => d.id),
    [documents, selected],
  );
  const allSelected = documents.length > 0 && selectedIds.length === documents.length;
  // The open document follows the polled list, so its text appears once processing finishes.
  const reading = useMemo(() => documents.find((d) => d.id === readingId) ?? null, [documents, readingId]);

  const handlers = useMemo<DocumentCardHandlers>(
    () => ({
      onToggleSelect: (id, isSelected) =>
        setSelected((current) => {
          const next = new Set(current);
          if (isSelected) next.add(id);
          else next.delete(id);
          return next;
        }),
      onRead: (document) => {
        setCited(NO_CITATION);
        setReadingId(document.id);
      },
      onDownload: actions.download,
      onDelete: (document) => setDeleteTarget({ kind: 'one', document }),
      onTagClick: (tag) => setSearch(tag),
    }),
    [actions.download],
  );

  const dropFromSelection = (ids: readonly string[]) =>
    setSelected((current) => {
      const next = new Set(current);
      for (const id of ids) next.delete(id);
      return next;
    });

  const confirmDelete = (target: DeleteTarget) => {
    setDeleteTarget(null);
    if (target.kind === 'one') {
      actions.remove(target.document, () => dropFromSelection([target.document.id]));
    } else {
      actions.removeMany(target.ids, () => dropFromSelection(target.ids));
    }
  };

  const filtered = q !== '' || type !== 'all';
  const clearFilters = () => {
    setSearch('');
    setType('all');
  };

  return (
    <div className="flex min-h-0 flex-1 flex-col">
      <div className="grid gap-4 border-b px-8 pt-8 pb-4">
        <div className="min-w-0">
          <h1 className="text-2xl font-semibold tracking-tight">Document Library</h1>
          <p className="mt-1 text-sm text-muted-foreground">
            Policies, reports and other files whose text Verity uses to answer questions.
          </p>
        </div>

        <div className="flex flex-wrap items-center gap-2">
          <SearchInput
            value={search}
            onChange={setSearch}
            pending={search.trim() !== q}
            placeholder="Search by name or tag..."
            label="Search documents"
            maxLength={200}
          />
          <TypeFilter value={type} onChange={setType} />
        </div>

        <div className="flex flex-wrap items-center gap-2">
          <p className="mr-auto text-sm text-muted-foreground" aria-live="polite">
            {query.data &&
              `${formatNumber(documents.length)} ${documents.length === 1 ? 'document' : 'documents'}${filtered ? ' found' : ''}`}
          </p>
          {selectedIds.length > 0 && (
            <span className="text-sm font-medium text-foreground" aria-live="polite">
              {formatNumber(selectedIds.length)} selected
            </span>
          )}
          <Button
            variant="ghost"
            onClick={() => setSelected(allSelected ? NO_SELECTION : new Set(documents.map((d) => d.id)))}
            disabled={documents.length === 0}
          >
            {allSelected ? 'Deselect All' : 'Select All'}
          </Button>
          <Button
            variant="outline"
            onClick={() => actions.exportMany(selectedIds)}
            disabled={selectedIds.length === 0 || actions.exporting}
          >
            {actions.exporting ? <LoaderCircle className="animate-spin" aria-hidden /> : <Download aria-hidden />}
            Export
          </Button>
          {canDelete && (
            <Button
              variant="outline"
              className="text-destructive hover:bg-red-50"
              onClick={() => setDeleteTarget({ kind: 'selection', ids: selectedIds })}
              disabled={selectedIds.length === 0 || actions.deleting}
            >
              <Trash2 aria-hidden />
              Delete
            </Button>
          )}
        </div>
      </div>

      <div className="min-h-0 flex-1 overflow-y-auto bg-surface/60 px-8 py-6">
        {query.isPending ? (
          <div className="flex justify-center py-16">
            <Spinner className="size-6" label="Loading documents" />
          </div>
        ) : query.isError && documents.length === 0 ? (
          <LoadError
            error={query.error}
            fallback="Could not load the documents."
            onRetry={() => void query.refetch()}
          />
        ) : documents.length === 0 ? (
          <DocumentsEmptyState filtered={filtered} canUpload={canUpload} onClearFilters={clearFilters} />
        ) : (
          <ul
            className={query.isPlaceholderData ? 'grid gap-3 opacity-60 transition-opacity' : 'grid gap-3'}
            aria-label="Documents"
            aria-busy={query.isPlaceholderData || undefined}
          >
            {documents.map((document: DocumentView) => (
              <li key={document.id}>
                <DocumentCard
                  document={document}
                  selected={selected.has(document.id)}
                  downloading={actions.downloadingId === document.id}
                  canDelete={canDelete}
                  handlers={handlers}
                />
              </li>
            ))}
          </ul>
        )}
      </div>

      <DocumentTextDialog document={reading} cited={cited} onClose={closeReading} />
      <DeleteDocumentsDialog target={deleteTarget} onCancel={() => setDeleteTarget(null)} onConfirm={confirmDelete} />
    </div>
  );
}
