import { Link } from 'react-router';
import { MessageSquare } from 'lucide-react';
import { paths } from '../../../paths';

/** Questions every security questionnaire asks: a first click shows how answers and sources look. */
const EXAMPLE_QUESTIONS = [
  'Do you encrypt customer data at rest and in transit?',
  'Do you support single sign-on with SAML or OpenID Connect?',
  'How often do you perform penetration tests?',
  'Do you have a documented incident response plan?',
] as const;

interface WelcomeCardProps {
  /** Puts an example in the composer (not sent), so the user can edit it first. */
  onPick: ((question: string) => void) | undefined;
  /** The workspace has neither library entries nor documents yet, and the user could add some. */
  emptyWorkspace: boolean;
}

/** PRODUCT: the welcome card shown while the chat has no messages. */
export function WelcomeCard({ onPick, emptyWorkspace }: WelcomeCardProps) {
  return (
    <div className="mx-auto flex max-w-2xl flex-col items-center px-6 py-12 text-center">
      <span className="flex size-12 items-center justify-center rounded-full bg-accent text-primary">
        <MessageSquare className="size-6" aria-hidden />
      </span>
      <h2 className="mt-4 text-lg font-semibold">Ask a security question</h2>
      <p className="mt-1 max-w-lg text-sm text-muted-foreground">
        Answers come from your approved Q&amp;A library first, then from your uploaded documents, each with its sources
        and a confidence score. Paste several questions, one per line, to answer them together.
      </p>
      {emptyWorkspace && (
        <p className="mt-4 max-w-lg rounded-lg border border-amber-200 bg-amber-50 px-4 py-3 text-sm text-amber-900">
          This workspace has no answers to draw on yet.{' '}
          <Link to={paths.library} className="font-medium underline underline-offset-2">
            Add Q&amp;A entries
          </Link>{' '}
          or{' '}
          <Link to={paths.documents} className="font-medium underline underline-offset-2">
            upload documents
          </Link>{' '}
          first.
        </p>
      )}
      {onPick && (
        <div className="mt-6 grid w-full gap-2 sm:grid-cols-2">
          {EXAMPLE_QUESTIONS.map((question) => (
            <button
              key={question}
              type="button"
              onClick={() => onPick(question)}
              className="rounded-lg border bg-background px-4 py-3 text-left text-sm text-slate-700 shadow-xs outline-none hover:border-indigo-300 hover:text-primary focus-visible:ring-2 focus-visible:ring-ring"
            >
              {question}
            </button>
          ))}
        </div>
      )}
    </div>
  );
}
