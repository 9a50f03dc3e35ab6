import { useId, useMemo, useState } from 'react';
import { Check, Send } from 'lucide-react';
import { ANSWER_MAX_LENGTH } from '../../../common/constants';
import type { AssessmentQuestionView } from '../../../common/schemas/assessments';
import { Button } from '../../components/ui/button';
import { Label } from '../../components/ui/label';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '../../components/ui/select';
import { Spinner } from '../../components/ui/spinner';
import { Textarea } from '../../components/ui/textarea';
import { citeChoices, type Cite } from './review-rules';

const NO_CITE = 'none';

interface AnswerEditorProps {
  /** The text to start from: the current answer, or '' for a question without one. */
  initial: string;
  /** The question's sources: what the person may cite instead of the engine's evidence. */
  sources: AssessmentQuestionView['sources'];
  initialCite: Cite | null;
  saving: boolean;
  onSave: (answer: string, cite: Cite | null) => void;
  /** Offered as a second button: save, then hand the answer to a reviewer. */
  onSaveAndSubmit?: (answer: string, cite: Cite | null) => void;
  onCancel: () => void;
}

/**
 * A person's answer to one question. It replaces the engine's: the engine's confidence and sources go, and the
 * person may cite the library entry or document the answer rests on.
 */
export function AnswerEditor({
  initial,
  sources,
  initialCite,
  saving,
  onSave,
  onSaveAndSubmit,
  onCancel,
}: AnswerEditorProps) {
  const [draft, setDraft] = useState(initial);
  const choices = useMemo(() => citeChoices(sources), [sources]);
  const [citeIndex, setCiteIndex] = useState(() => {
    const index = initialCite
      ? choices.findIndex((c) => c.cite.type === initialCite.type && c.cite.id === initialCite.id)
      : -1;
    return index === -1 ? NO_CITE : String(index);
  });
  const citeId = useId();
  const blank = draft.trim() === '';
  const cite = citeIndex === NO_CITE ? null : (choices[Number(citeIndex)]?.cite ?? null);

  return (
    <form
      className="grid gap-2"
      onSubmit={(event) => {
        event.preventDefault();
        if (!blank) onSave(draft.trim(), cite);
      }}
    >
      <Textarea
        value={draft}
        onChange={(event) => setDraft(event.target.value)}
        aria-label="Answer"
        maxLength={ANSWER_MAX_LENGTH}
        rows={Math.min(12, Math.max(3, draft.split('\n').length + 1))}
        autoFocus
        onKeyDown={(event) => {
          if (event.key === 'Escape') {
            event.stopPropagation();
            onCancel();
          }
        }}
      />
      {choices.length > 0 && (
        <div className="flex flex-wrap items-center gap-2">
          <Label htmlFor={citeId} className="text-xs font-normal text-muted-foreground">
            Cite
          </Label>
          <Select value={citeIndex} onValueChange={setCiteIndex}>
            <SelectTrigger id={citeId} className="h-8 w-auto max-w-full min-w-48 text-xs" aria-label="Cite a source">
              <SelectValue />
            </SelectTrigger>
            <SelectContent>
              <SelectItem value={NO_CITE}>No source</SelectItem>
              {choices.map((choice, index) => (
                <SelectItem key={`${choice.cite.type}:${choice.cite.id}`} value={String(index)}>
                  {choice.label}
                </SelectItem>
              ))}
            </SelectContent>
          </Select>
        </div>
      )}
      <div className="flex flex-wrap items-center gap-2">
        <Button type="submit" size="sm" disabled={blank || saving}>
          {saving ? <Spinner className="size-4 text-primary-foreground" label="Saving" /> : <Check aria-hidden />}
          Save
        </Button>
        {onSaveAndSubmit && (
          <Button
            variant="outline"
            size="sm"
            disabled={blank || saving}
            onClick={() => onSaveAndSubmit(draft.trim(), cite)}
          >
            <Send aria-hidden />
            Save and submit for review
          </Button>
        )}
        <Button variant="ghost" size="sm" onClick={onCancel} disabled={saving}>
          Cancel
        </Button>
      </div>
    </form>
  );
}
