import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { Archive, BadgeCheck, BookOpen, CircleCheck, FilePen, Plus, SearchX, Upload } from 'lucide-react';
import { Button } from '../../../components/ui/button';
import { EmptyState } from '../../../components/ui/empty-state';
import { paths } from '../../../paths';
import type { LibraryTab } from '../library-tabs';

interface LibraryEmptyStateProps {
  tab: LibraryTab;
  filtered: boolean;
  canCreate: boolean;
  canImport: boolean;
  onCreate: () => void;
  onClearFilters: () => void;
}

const TAB_EMPTY: Record<Exclude<LibraryTab, 'all'>, { icon: ReactNode; title: string; description: string }> = {
  approved: {
    icon: <CircleCheck aria-hidden />,
    title: 'No approved answers',
    description: 'Approved answers are the ones used to answer questionnaires. Approve a draft to see it here.',
  },
  draft: {
    icon: <FilePen aria-hidden />,
    title: 'No draft answers',
    description: 'Drafts waiting for a manager or admin to approve them appear here.',
  },
  archived: {
    icon: <Archive aria-hidden />,
    title: 'No archived answers',
    description: 'Archived answers stay on record here but no longer answer questions.',
  },
  reverify: {
    icon: <BadgeCheck aria-hidden />,
    title: 'Nothing needs re-verification',
    description: 'Approved answers appear here once their review interval has passed since they were last verified.',
  },
};

/** PRODUCT empty states: 'No canonical answers yet' for an empty library, 'No matching answers found' for a search. */
export function LibraryEmptyState({
  tab,
  filtered,
  canCreate,
  canImport,
  onCreate,
  onClearFilters,
}: LibraryEmptyStateProps) {
  if (filtered) {
    return (
      <EmptyState
        icon={<SearchX aria-hidden />}
        title="No matching answers found"
        description="Try different words, or clear the search and filters."
        actions={
          <Button variant="outline" onClick={onClearFilters}>
            Clear filters
          </Button>
        }
      />
    );
  }
  if (tab !== 'all') {
    const { icon, title, description } = TAB_EMPTY[tab];
    return <EmptyState icon={icon} title={title} description={description} />;
  }
  return (
    <EmptyState
      icon={<BookOpen aria-hidden />}
      title="No canonical answers yet"
      description="Add the answers your team gives most often, or import the ones you already keep in a spreadsheet."
      actions={
        (canCreate || canImport) && (
          <>
            {canImport && (
              <Button variant="outline" asChild>
                <Link to={paths.import}>
                  <Upload aria-hidden />
                  Import Q&amp;A
                </Link>
              </Button>
            )}
            {canCreate && (
              <Button onClick={onCreate}>
                <Plus aria-hidden />
                Create Question
              </Button>
            )}
          </>
        )
      }
    />
  );
}
