import { REVIEW_STATE_LABELS, REVIEW_STATES } from '../../../../common/review-states';
import { ANSWER_TYPES } from '../../../../common/schemas/qa';
import { ANSWER_TYPE_LABELS } from '../../../components/knowledge/answer-type-badge';
import { SearchInput } from '../../../components/ui/search-input';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '../../../components/ui/select';
import { formatNumber } from '../../../lib/format';
import {
  isAnswerTypeFilter,
  isReviewFilter,
  isStatusFilter,
  STATUS_FILTERS,
  STATUS_LABELS,
  type QuestionCounts,
  type QuestionFilter,
} from '../question-filter';

interface QuestionFiltersProps {
  filter: QuestionFilter;
  onChange: (change: Partial<QuestionFilter>) => void;
  /** The typed search has not been applied yet. */
  searching: boolean;
  counts: QuestionCounts;
  total: number;
}

/**
 * PRODUCT: search, a status filter (all, completed, processing, pending, failed), the review state (needs answer,
 * drafted, in review, approved, not applicable) and the answer type.
 */
export function QuestionFilters({ filter, onChange, searching, counts, total }: QuestionFiltersProps) {
  return (
    <div className="flex flex-wrap items-center gap-2">
      <SearchInput
        value={filter.search}
        onChange={(search) => onChange({ search })}
        pending={searching}
        placeholder="Search questions, answers and control ids..."
        label="Search questions"
        maxLength={200}
      />
      <Select value={filter.status} onValueChange={(value) => isStatusFilter(value) && onChange({ status: value })}>
        <SelectTrigger className="w-full sm:w-52" aria-label="Status">
          <SelectValue />
        </SelectTrigger>
        <SelectContent>
          {STATUS_FILTERS.map((status) => (
            <SelectItem key={status} value={status}>
              {STATUS_LABELS[status]} ({formatNumber(status === 'all' ? total : counts.byStatus[status])})
            </SelectItem>
          ))}
        </SelectContent>
      </Select>
      <Select
        value={filter.reviewState}
        onValueChange={(value) => isReviewFilter(value) && onChange({ reviewState: value })}
      >
        <SelectTrigger className="w-full sm:w-48" aria-label="Review state">
          <SelectValue />
        </SelectTrigger>
        <SelectContent>
          <SelectItem value="all">All review states</SelectItem>
          {REVIEW_STATES.map((state) => (
            <SelectItem key={state} value={state}>
              {REVIEW_STATE_LABELS[state]} ({formatNumber(counts.byReview[state])})
            </SelectItem>
          ))}
        </SelectContent>
      </Select>
      <Select
        value={filter.answerType}
        onValueChange={(value) => isAnswerTypeFilter(value) && onChange({ answerType: value })}
      >
        <SelectTrigger className="w-full sm:w-56" aria-label="Answer type">
          <SelectValue />
        </SelectTrigger>
        <SelectContent>
          <SelectItem value="all">All answer types</SelectItem>
          {ANSWER_TYPES.map((type) => (
            <SelectItem key={type} value={type}>
              {ANSWER_TYPE_LABELS[type]} ({formatNumber(counts.byType[type])})
            </SelectItem>
          ))}
        </SelectContent>
      </Select>
    </div>
  );
}
