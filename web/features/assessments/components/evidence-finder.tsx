import { useId, useState, type ReactNode } from 'react';
import { BookOpen, FileText, Link2, Plus, Search } from 'lucide-react';
import { QUESTION_MAX_LENGTH } from '../../../../common/constants';
import type { EvidenceResponse } from '../../../../common/schemas/evidence';
import { Badge } from '../../../components/ui/badge';
import { Button } from '../../../components/ui/button';
import { Input } from '../../../components/ui/input';
import { Spinner } from '../../../components/ui/spinner';
import { errorMessage } from '../../../lib/api';
import { useQuestionEvidence } from '../api/get-question-evidence';
import { citeKey, entryCite, passageCite, passagePlace } from '../evidence-rules';
import type { CiteChoice } from '../review-rules';

interface EvidenceFinderProps {
  batchId: string;
  questionId: string;
  /** The citation chosen now, to mark the result it came from. */
  citedKey: string | null;
  onInsert: (text: string) => void;
  onCite: (choice: CiteChoice) => void;
}

/**
 * Looks through the library and the documents for what an answer may say and rest on: first for the question
 * itself, then for any words the person types. Each result can be put into the answer and cited.
 */
export function EvidenceFinder({ batchId, questionId, citedKey, onInsert, onCite }: EvidenceFinderProps) {
  const [typed, setTyped] = useState('');
  const [searched, setSearched] = useState('');
  const evidence = useQuestionEvidence(batchId, questionId, searched, true);
  const inputId = useId();
  const search = () => setSearched(typed.trim());

  return (
    <section className="grid gap-2 rounded-md border bg-muted/30 p-3" aria-label="Find in library and documents">
      <div className="flex flex-wrap items-center gap-2">
        <label htmlFor={inputId} className="text-xs font-medium text-slate-700">
          Find in library and documents
        </label>
        <div className="flex min-w-0 flex-1 basis-56 gap-2">
          <Input
            id={inputId}
            type="search"
            value={typed}
            maxLength={QUESTION_MAX_LENGTH}
            placeholder="Other words to look for (empty: the question)"
            className="h-8 min-w-0 text-xs"
            onChange={(event) => setTyped(event.target.value)}
            onKeyDown={(event) => {
              // The editor is a form: Enter here searches instead of saving the answer.
              if (event.key === 'Enter') {
                event.preventDefault();
                search();
              }
            }}
          />
          <Button variant="outline" size="sm" onClick={search} disabled={evidence.isFetching}>
            {evidence.isFetching ? <Spinner className="size-4" label="Searching" /> : <Search aria-hidden />}
            Search
          </Button>
        </div>
      </div>
      {evidence.isError ? (
        <p className="text-xs text-red-700" role="alert">
          {errorMessage(evidence.error, 'Could not search the library and documents.')}
        </p>
      ) : evidence.data ? (
        <EvidenceResults evidence={evidence.data} citedKey={citedKey} onInsert={onInsert} onCite={onCite} />
      ) : (
        <p className="text-xs text-muted-foreground">Looking for the question in the library and documents…</p>
      )}
    </section>
  );
}

function EvidenceResults({
  evidence,
  citedKey,
  onInsert,
  onCite,
}: { evidence: EvidenceResponse } & Pick<EvidenceFinderProps, 'citedKey' | 'onInsert' | 'onCite'>) {
  if (evidence.entries.length === 0 && evidence.passages.length === 0) {
    return (
      <p className="text-xs text-muted-foreground">Nothing in the library or the documents matches these words.</p>
    );
  }
  return (
    <ul className="grid gap-2" aria-label="Found in library and documents">
      {evidence.entries.map((entry) => {
        const choice = entryCite(entry);
        return (
          <FoundItem
            key={`entry-${entry.id}`}
            icon={<BookOpen className="size-3.5 shrink-0" aria-hidden />}
            heading={entry.question}
            tag={
              <>
                <Badge variant="outline">{entry.status === 'approved' ? 'Approved' : 'Draft'}</Badge>
                <span className="text-xs text-muted-foreground tabular-nums">{entry.match}% match</span>
              </>
            }
            text={entry.answer}
            insertLabel="Use answer"
            cited={citedKey === citeKey(choice.cite)}
            onInsert={() => onInsert(entry.answer)}
            onCite={() => onCite(choice)}
          />
        );
      })}
      {evidence.passages.map((passage, index) => {
        const choice = passageCite(passage);
        return (
          <FoundItem
            key={`passage-${passage.documentId}-${String(index)}`}
            icon={<FileText className="size-3.5 shrink-0" aria-hidden />}
            heading={passagePlace(passage)}
            tag={passage.section ? <span className="text-xs text-muted-foreground">{passage.section}</span> : null}
            text={passage.text}
            insertLabel="Use passage"
            cited={citedKey === citeKey(choice.cite)}
            onInsert={() => onInsert(passage.text)}
            onCite={() => onCite(choice)}
          />
        );
      })}
    </ul>
  );
}

interface FoundItemProps {
  icon: ReactNode;
  heading: string;
  tag: ReactNode;
  text: string;
  insertLabel: string;
  cited: boolean;
  onInsert: () => void;
  onCite: () => void;
}

function FoundItem({ icon, heading, tag, text, insertLabel, cited, onInsert, onCite }: FoundItemProps) {
  return (
    <li className="grid min-w-0 gap-1 rounded-md border bg-background px-3 py-2">
      <p className="flex min-w-0 flex-wrap items-center gap-x-2 gap-y-1 text-xs font-medium text-slate-800">
        {icon}
        <span className="min-w-0 break-words">{heading}</span>
        {tag}
      </p>
      {/* Plain text, like every answer: a passage may quote markup. */}
      <p className="line-clamp-4 text-xs leading-relaxed break-words whitespace-pre-line text-slate-600">{text}</p>
      <div className="-ml-2 flex flex-wrap gap-1">
        <Button variant="ghost" size="sm" onClick={onInsert} aria-label={`${insertLabel}: ${heading}`}>
          <Plus aria-hidden />
          {insertLabel}
        </Button>
        <Button
          variant="ghost"
          size="sm"
          onClick={onCite}
          disabled={cited}
          aria-label={`${cited ? 'Cited' : 'Cite'}: ${heading}`}
        >
          <Link2 aria-hidden />
          {cited ? 'Cited' : 'Cite'}
        </Button>
      </div>
    </li>
  );
}
