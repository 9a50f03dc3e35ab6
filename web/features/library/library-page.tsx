import { useLocation } from 'react-router';
import { useWorkspace } from '../../app/workspace/use-workspace';
import { LibraryView } from './library-view';

/** /library: the library mode of the main workspace page. */
export function LibraryPage() {
  const location = useLocation();
  const { currentWorkspace } = useWorkspace();
  // Keyed by workspace: a switch starts from a clean search and selection, not the old workspace's ids.
  // Keyed by the query too: a link from another screen (?q=, ?tag=) starts the library on that search.
  return <LibraryView key={`${currentWorkspace?.id ?? 'none'}${location.search}`} />;
}
