import { useId, useMemo, useState } from 'react';
import { Check, Search, Send } from 'lucide-react';
import { ANSWER_MAX_LENGTH } from '../../../common/constants';
import type { AssessmentQuestionView } from '../../../common/schemas/assessments';
import { Button } from '../../components/ui/button';
import { Label } from '../../components/ui/label';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '../../components/ui/select';
import { Spinner } from '../../components/ui/spinner';
import { Textarea } from '../../components/ui/textarea';
import { EvidenceFinder } from './components/evidence-finder';
import { citeKey, mergedCiteChoices, withInsertedText } from './evidence-rules';
import { citeChoices, type Cite, type CiteChoice } from './review-rules';

const NO_CITE = 'none';

interface AnswerEditorProps {
  /** The text to start from: the current answer, or '' for a question without one. */
  initial: string;
  /** The question's sources: what the person may cite instead of the engine's evidence. */
  sources: AssessmentQuestionView['sources'];
  initialCite: Cite | null;
  /** The question, for looking through the library and documents for what to write and cite. */
  evidenceFor?: { batchId: string; questionId: string };
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
  evidenceFor,
  saving,
  onSave,
  onSaveAndSubmit,
  onCancel,
}: AnswerEditorProps) {
  const [draft, setDraft] = useState(initial);
  const [picked, setPicked] = useState<CiteChoice[]>([]);
  const choices = useMemo(() => mergedCiteChoices(citeChoices(sources), picked), [sources, picked]);
  const [citedKey, setCitedKey] = useState(() => {
    const key = initialCite ? citeKey(initialCite) : NO_CITE;
    return choices.some((c) => citeKey(c.cite) === key) ? key : NO_CITE;
  });
  // Someone writing an answer from nothing looks for what to say first; an answer being edited can look on request.
  const [finding, setFinding] = useState(initial.trim() === '' && evidenceFor !== undefined);
  const citeId = useId();
  const blank = draft.trim() === '';
  const cite = choices.find((c) => citeKey(c.cite) === citedKey)?.cite ?? null;
  const citeFound = (choice: CiteChoice) => {
    setPicked((earlier) => [...earlier, choice]);
    setCitedKey(citeKey(choice.cite));
  };

  return (
    <form
      className="grid grid-cols-[minmax(0,1fr)] gap-2"
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
          <Select value={citedKey} onValueChange={setCitedKey}>
            <SelectTrigger
              id={citeId}
              className="h-8 w-auto max-w-full min-w-0 text-xs sm:min-w-48"
              aria-label="Cite a source"
            >
              <SelectValue />
            </SelectTrigger>
            <SelectContent>
              <SelectItem value={NO_CITE}>No source</SelectItem>
              {choices.map((choice) => (
                <SelectItem key={citeKey(choice.cite)} value={citeKey(choice.cite)}>
                  {choice.label}
                </SelectItem>
              ))}
            </SelectContent>
          </Select>
        </div>
      )}
      {evidenceFor &&
        (finding ? (
          <EvidenceFinder
            batchId={evidenceFor.batchId}
            questionId={evidenceFor.questionId}
            citedKey={cite ? citeKey(cite) : null}
            onInsert={(text) => setDraft((current) => withInsertedText(current, text))}
            onCite={citeFound}
          />
        ) : (
          <Button variant="ghost" size="sm" className="-ml-2 w-fit" onClick={() => setFinding(true)}>
            <Search aria-hidden />
            Find in library and documents
          </Button>
        ))}
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
