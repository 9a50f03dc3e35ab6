import type { UseFormRegisterReturn } from 'react-hook-form';
import { TextField } from '../ui/text-field';
import { TextareaField } from '../ui/textarea-field';

interface AnswerFormFieldsProps {
  question: UseFormRegisterReturn;
  answer: UseFormRegisterReturn;
  tags: UseFormRegisterReturn;
  errors: { question?: string; answer?: string; tags?: string };
  /** Shown to people who may read but not change the entry: readable text, not greyed-out inputs. */
  readOnly?: boolean;
}

/** The question, answer and tags inputs shared by the create and edit dialogs (PRODUCT §5 library form). */
export function AnswerFormFields({ question, answer, tags, errors, readOnly }: AnswerFormFieldsProps) {
  return (
    <>
      <TextareaField
        label="Question"
        rows={2}
        placeholder="e.g. Do you encrypt customer data at rest?"
        error={errors.question}
        readOnly={readOnly}
        {...question}
      />
      <TextareaField
        label="Answer"
        rows={6}
        placeholder="The answer your team gives, in full sentences."
        error={errors.answer}
        readOnly={readOnly}
        {...answer}
      />
      <TextField
        label="Tags"
        placeholder="encryption, data protection, SOC 2"
        hint="Separate tags with commas."
        error={errors.tags}
        readOnly={readOnly}
        {...tags}
      />
    </>
  );
}
