import type { UserView } from '../../../../common/schemas/auth';
import { formatLabel, fullName, initials } from '../../../lib/format';

export function UserSummary({ user }: { user: UserView }) {
  const name = fullName(user);
  return (
    <div className="flex items-center gap-3 px-3 py-2">
      <span
        aria-hidden
        className="flex size-9 shrink-0 items-center justify-center rounded-full bg-primary text-sm font-semibold text-primary-foreground"
      >
        {initials(user)}
      </span>
      <div className="min-w-0">
        <p className="truncate text-sm font-medium" title={name || undefined}>
          {user.username}
        </p>
        <p className="truncate text-xs text-muted-foreground">{formatLabel(user.role)}</p>
      </div>
    </div>
  );
}
