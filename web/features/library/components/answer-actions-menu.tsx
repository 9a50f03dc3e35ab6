import {
  Archive,
  ArchiveArrowUp,
  BadgeCheck,
  CircleCheck,
  Ellipsis,
  Eye,
  LoaderCircle,
  Pencil,
  Trash,
} from 'lucide-react';
import type { CanonicalAnswerView } from '../../../../common/schemas/knowledge';
import { Button } from '../../../components/ui/button';
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuSeparator,
  DropdownMenuTrigger,
} from '../../../components/ui/dropdown-menu';
import type { LibraryPermissions } from '../use-library-permissions';

interface AnswerActionsMenuProps {
  answer: CanonicalAnswerView;
  permissions: LibraryPermissions;
  busy: boolean;
  onOpen: () => void;
  onApprove: () => void;
  onVerify: () => void;
  onArchive: () => void;
  onRestore: () => void;
  onDelete: () => void;
}

/** Per-entry actions, offered only when the server's policy would allow them for this user and status. */
export function AnswerActionsMenu({
  answer,
  permissions,
  busy,
  onOpen,
  onApprove,
  onVerify,
  onArchive,
  onRestore,
  onDelete,
}: AnswerActionsMenuProps) {
  const canEdit = permissions.canEdit(answer);
  const { canApprove, canDelete } = permissions;
  const { status } = answer;

  return (
    <DropdownMenu>
      <DropdownMenuTrigger asChild>
        <Button
          variant="ghost"
          size="icon"
          className="size-8 text-muted-foreground"
          aria-label={`Actions for "${answer.question}"`}
          disabled={busy}
        >
          {busy ? <LoaderCircle className="animate-spin" aria-hidden /> : <Ellipsis aria-hidden />}
        </Button>
      </DropdownMenuTrigger>
      <DropdownMenuContent>
        <DropdownMenuItem onSelect={onOpen}>
          {canEdit ? <Pencil aria-hidden /> : <Eye aria-hidden />}
          {canEdit ? 'Edit' : 'View details'}
        </DropdownMenuItem>
        {canApprove && status === 'draft' && (
          <DropdownMenuItem onSelect={onApprove}>
            <CircleCheck aria-hidden />
            Approve
          </DropdownMenuItem>
        )}
        {canApprove && status === 'approved' && (
          <DropdownMenuItem onSelect={onVerify}>
            <BadgeCheck aria-hidden />
            Mark as verified
          </DropdownMenuItem>
        )}
        {canApprove && status !== 'archived' && (
          <DropdownMenuItem onSelect={onArchive}>
            <Archive aria-hidden />
            Archive
          </DropdownMenuItem>
        )}
        {canApprove && status === 'archived' && (
          <DropdownMenuItem onSelect={onRestore}>
            <ArchiveArrowUp aria-hidden />
            Restore as draft
          </DropdownMenuItem>
        )}
        {canDelete && (
          <>
            <DropdownMenuSeparator />
            <DropdownMenuItem variant="destructive" onSelect={onDelete}>
              <Trash aria-hidden />
              Delete
            </DropdownMenuItem>
          </>
        )}
      </DropdownMenuContent>
    </DropdownMenu>
  );
}
