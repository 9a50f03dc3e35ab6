import type { MyQuestion } from '../../../common/schemas/assessments';

/** One assessment's questions on "My questions". */
export interface AssessmentGroup {
  batchId: string;
  batchName: string;
  customerName: string | null;
  batchDueOn: string | null;
  questions: MyQuestion['question'][];
}

/**
 * The questions grouped by assessment, the groups in the order their first question comes (the server sends the
 * soonest due first), each group's questions in that order too.
 */
export function groupByAssessment(items: readonly MyQuestion[]): AssessmentGroup[] {
  const groups = new Map<string, AssessmentGroup>();
  for (const item of items) {
    let group = groups.get(item.batchId);
    if (!group) {
      group = {
        batchId: item.batchId,
        batchName: item.batchName,
        customerName: item.customerName,
        batchDueOn: item.batchDueOn,
        questions: [],
      };
      groups.set(item.batchId, group);
    }
    group.questions.push(item.question);
  }
  return [...groups.values()];
}
