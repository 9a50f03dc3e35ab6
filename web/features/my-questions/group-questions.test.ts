import { describe, expect, it } from 'vitest';
import type { MyQuestion } from '../../../common/schemas/assessments';
import { questionFixture } from '../assessments/question-fixture';
import { groupByAssessment } from './group-questions';

const item = (batchId: string, id: string): MyQuestion => ({
  batchId,
  batchName: `Assessment ${batchId}`,
  customerName: batchId === 'a' ? 'Acme' : null,
  batchDueOn: batchId === 'a' ? '2025-03-04' : null,
  question: questionFixture({ id }),
});

describe('my questions by assessment', () => {
  it('keeps the order the server sends (soonest due first), for the groups and inside each', () => {
    const groups = groupByAssessment([item('b', '1'), item('a', '2'), item('b', '3'), item('a', '4')]);
    expect(groups.map((g) => g.batchId)).toEqual(['b', 'a']);
    expect(groups.map((g) => g.questions.map((q) => q.id))).toEqual([
      ['1', '3'],
      ['2', '4'],
    ]);
    expect(groups[1]).toMatchObject({ batchName: 'Assessment a', customerName: 'Acme', batchDueOn: '2025-03-04' });
  });

  it('has no group without questions', () => {
    expect(groupByAssessment([])).toEqual([]);
  });
});
