/** A questionnaire question as its heading: the customer's control id (if any) as a chip, then the question. */
export function QuestionTitle({
  id,
  question,
}: {
  id: string;
  question: { controlId: string | null; question: string };
}) {
  return (
    <h3 id={id} className="text-sm leading-snug font-medium break-words">
      {question.controlId && (
        <span className="mr-1.5 rounded bg-muted px-1.5 py-px font-mono text-xs font-normal text-slate-700">
          {question.controlId}
        </span>
      )}
      {question.question}
    </h3>
  );
}
