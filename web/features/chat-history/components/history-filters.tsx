import { SearchInput } from '../../../components/ui/search-input';
import { ANSWER_TYPES, HISTORY_PERIODS, type AnswerType } from '../../../../common/schemas/qa';
import { ANSWER_TYPE_LABELS } from '../../../components/knowledge/answer-type-badge';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '../../../components/ui/select';
import { useOrganizationUsers } from '../../../app/people/get-organization-users';
import { PERIOD_LABELS, type HistoryFilter, type HistoryPeriod } from '../history-filter';

/** Radix Select items cannot have an empty value; this one stands for "no filter". */
const ALL = 'all';

interface HistoryFiltersProps {
  search: string;
  onSearchChange: (value: string) => void;
  /** The typed search has not been applied yet (debounce pending). */
  searching: boolean;
  filter: HistoryFilter;
  onChange: (change: Partial<HistoryFilter>) => void;
  /** Admin-level users see everyone's questions and may narrow them to one person. */
  canFilterUsers: boolean;
  /** Sessions hold answers of every type, so the answer type filter does not apply to them. */
  answerTypeDisabled?: boolean;
}

function UserFilter({
  value,
  onChange,
}: {
  value: string | undefined;
  onChange: (userId: string | undefined) => void;
}) {
  const users = useOrganizationUsers();
  return (
    <Select value={value ?? ALL} onValueChange={(next) => onChange(next === ALL ? undefined : next)}>
      <SelectTrigger className="w-44" aria-label="User">
        <SelectValue placeholder="All users" />
      </SelectTrigger>
      <SelectContent>
        <SelectItem value={ALL}>All users</SelectItem>
        {users.data?.map((user) => (
          <SelectItem key={user.id} value={user.id}>
            {user.username}
          </SelectItem>
        ))}
      </SelectContent>
    </Select>
  );
}

function isPeriod(value: string): value is HistoryPeriod {
  return (HISTORY_PERIODS as readonly string[]).includes(value);
}

function isAnswerType(value: string): value is AnswerType {
  return (ANSWER_TYPES as readonly string[]).includes(value);
}

/** PRODUCT "Chat History" filters: Search, User, Time Period and Answer Type. */
export function HistoryFilters({
  search,
  onSearchChange,
  searching,
  filter,
  onChange,
  canFilterUsers,
  answerTypeDisabled = false,
}: HistoryFiltersProps) {
  return (
    <div className="flex flex-wrap items-center gap-2">
      <SearchInput
        value={search}
        onChange={onSearchChange}
        pending={searching}
        placeholder="Search questions, answers and session titles..."
        label="Search chat history"
        maxLength={200}
      />
      {canFilterUsers && <UserFilter value={filter.userId} onChange={(userId) => onChange({ userId })} />}
      <Select value={filter.period} onValueChange={(value) => isPeriod(value) && onChange({ period: value })}>
        <SelectTrigger className="w-40" aria-label="Time period">
          <SelectValue />
        </SelectTrigger>
        <SelectContent>
          {(['all', 'today', '7d', '30d'] as const).map((period) => (
            <SelectItem key={period} value={period}>
              {PERIOD_LABELS[period]}
            </SelectItem>
          ))}
        </SelectContent>
      </Select>
      <Select
        value={filter.answerType ?? ALL}
        onValueChange={(value) => onChange({ answerType: isAnswerType(value) ? value : undefined })}
        disabled={answerTypeDisabled}
      >
        <SelectTrigger
          className="w-44"
          aria-label="Answer type"
          title={answerTypeDisabled ? 'The answer type applies to individual questions' : undefined}
        >
          <SelectValue />
        </SelectTrigger>
        <SelectContent>
          <SelectItem value={ALL}>All answer types</SelectItem>
          {ANSWER_TYPES.map((type) => (
            <SelectItem key={type} value={type}>
              {ANSWER_TYPE_LABELS[type]}
            </SelectItem>
          ))}
        </SelectContent>
      </Select>
    </div>
  );
}
