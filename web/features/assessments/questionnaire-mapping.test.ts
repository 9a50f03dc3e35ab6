import { describe, expect, it } from 'vitest';
import type { PreviewResponse, SheetMapping } from '../../../common/schemas/assessments';
import {
  columnLabel,
  columnLetter,
  defaultChoiceLabel,
  mappingOf,
  withAnswerChoiceColumns,
  withAnswerColumn,
  withChoiceLabel,
  withCommentsColumn,
  withIdColumn,
  withQuestionColumn,
  withRows,
} from './questionnaire-mapping';

type PreviewSheet = PreviewResponse['sheets'][number];

function mapping(sheet: string, overrides: Partial<SheetMapping> = {}): SheetMapping {
  return { sheet, headerRow: 0, questionColumn: 1, answerColumn: 2, commentsColumn: 3, idColumn: 0, ...overrides };
}

function sheet(name: string, sheetMapping: SheetMapping | null): PreviewSheet {
  return {
    name,
    hidden: false,
    rowCount: 10,
    columns: ['ID', 'Question', 'Answer', 'Comments'],
    mapping: sheetMapping,
    questionCount: sheetMapping ? 9 : 0,
    prefilledAnswers: 0,
    dropdownQuestions: 0,
    skipped: null,
  };
}

describe('columnLetter', () => {
  it('counts columns the spreadsheet way', () => {
    expect(columnLetter(0)).toBe('A');
    expect(columnLetter(25)).toBe('Z');
    expect(columnLetter(26)).toBe('AA');
    expect(columnLetter(51)).toBe('AZ');
    expect(columnLetter(52)).toBe('BA');
    expect(columnLetter(701)).toBe('ZZ');
    expect(columnLetter(702)).toBe('AAA');
  });
});

describe('columnLabel', () => {
  it('pairs the letter with the header, or says Column X without one', () => {
    expect(columnLabel(['ID', ' Question '], 1)).toBe('B · Question');
    expect(columnLabel(['ID', ''], 1)).toBe('Column B');
    expect(columnLabel(['ID'], 4)).toBe('Column E');
    expect(columnLabel(['Column A'], 0)).toBe('Column A');
  });
});

describe('mappingOf', () => {
  it("keeps the mapping of each sheet that has one, in the preview's order", () => {
    const first = mapping('One');
    const third = mapping('Three');
    const preview = { sheets: [sheet('One', first), sheet('Two', null), sheet('Three', third)] } as PreviewResponse;
    expect(mappingOf(preview)).toEqual([first, third]);
  });
});

describe('withQuestionColumn', () => {
  const one = sheet('One', mapping('One'));
  const two = sheet('Two', mapping('Two'));
  const sheets = [one, two];
  const detected = [mapping('One'), mapping('Two')];

  it('leaves a sheet out for no column', () => {
    expect(withQuestionColumn(detected, sheets, one, null, detected)).toEqual([mapping('Two')]);
  });

  it('gives up any other role of the column the questions take over', () => {
    const [changed] = withQuestionColumn(detected, sheets, one, 2, detected);
    expect(changed).toEqual(mapping('One', { questionColumn: 2, answerColumn: null }));
  });

  it('gives back the comments column detection found once it is free again', () => {
    const moved = withQuestionColumn(detected, sheets, one, 3, detected);
    expect(moved[0]).toEqual(mapping('One', { questionColumn: 3, commentsColumn: null }));
    const back = withQuestionColumn(moved, sheets, one, 1, detected);
    expect(back[0]).toEqual(mapping('One'));
  });

  it('brings a left-out sheet back in workbook order, from what detection found', () => {
    const withoutOne = [mapping('Two')];
    expect(withQuestionColumn(withoutOne, sheets, one, 1, detected)).toEqual([mapping('One'), mapping('Two')]);
  });

  it('reads a sheet nothing was detected on as questions from its first row', () => {
    const bare = sheet('Bare', null);
    const result = withQuestionColumn([], [bare], bare, 0, []);
    expect(result).toEqual([
      { sheet: 'Bare', headerRow: -1, questionColumn: 0, answerColumn: null, commentsColumn: null, idColumn: null },
    ]);
  });
});

describe('withAnswerColumn', () => {
  const detected = [mapping('One'), mapping('Two')];

  it('changes only the named sheet', () => {
    const result = withAnswerColumn(detected, 'One', 5, detected);
    expect(result).toEqual([mapping('One', { answerColumn: 5 }), mapping('Two')]);
  });

  it('takes the column from comments or id when the answer moves onto it', () => {
    expect(withAnswerColumn(detected, 'One', 3, detected)[0]).toEqual(
      mapping('One', { answerColumn: 3, commentsColumn: null }),
    );
    expect(withAnswerColumn(detected, 'One', 0, detected)[0]).toEqual(
      mapping('One', { answerColumn: 0, idColumn: null }),
    );
  });

  it('keeps "no answer column" as the user chose, and restores comments once freed', () => {
    const onComments = withAnswerColumn(detected, 'One', 3, detected);
    expect(withAnswerColumn(onComments, 'One', null, detected)[0]).toEqual(mapping('One', { answerColumn: null }));
  });
});

describe('withCommentsColumn', () => {
  const detected = [mapping('One'), mapping('Two')];

  it('changes only the named sheet, and takes the column from the ids', () => {
    expect(withCommentsColumn(detected, 'One', 5)).toEqual([mapping('One', { commentsColumn: 5 }), mapping('Two')]);
    expect(withCommentsColumn(detected, 'One', 0)[0]).toEqual(mapping('One', { commentsColumn: 0, idColumn: null }));
  });

  it('leaves the comments column out for none', () => {
    expect(withCommentsColumn(detected, 'Two', null)[1]).toEqual(mapping('Two', { commentsColumn: null }));
  });
});

describe('withIdColumn', () => {
  const detected = [mapping('One'), mapping('Two')];

  it('changes only the named sheet, and takes the column from the comments', () => {
    expect(withIdColumn(detected, 'One', 4)).toEqual([mapping('One', { idColumn: 4 }), mapping('Two')]);
    expect(withIdColumn(detected, 'One', 3)[0]).toEqual(mapping('One', { idColumn: 3, commentsColumn: null }));
  });

  it('leaves the ids out for none, keeping the comments', () => {
    expect(withIdColumn(detected, 'One', null)[0]).toEqual(mapping('One', { idColumn: null }));
  });
});

describe('withRows', () => {
  const detected = [mapping('One'), mapping('Two')];

  it("sets the named sheet's header row and question rows", () => {
    const result = withRows(detected, 'One', { headerRow: 3, firstRow: 5, lastRow: 40 });
    expect(result).toEqual([mapping('One', { headerRow: 3, firstRow: 5, lastRow: 40 }), mapping('Two')]);
  });

  it('keeps the rows not named in the change', () => {
    const set = withRows(detected, 'One', { firstRow: 5, lastRow: 40 });
    expect(withRows(set, 'One', { lastRow: 30 })[0]).toEqual(mapping('One', { firstRow: 5, lastRow: 30 }));
    expect(withRows(set, 'One', { headerRow: -1 })[0]).toEqual(
      mapping('One', { headerRow: -1, firstRow: 5, lastRow: 40 }),
    );
  });

  it('clears a first or last row with null, leaving no key behind', () => {
    const set = withRows(detected, 'One', { firstRow: 5, lastRow: 40 });
    const cleared = withRows(set, 'One', { firstRow: null, lastRow: null })[0];
    expect(cleared).toStrictEqual(mapping('One'));
  });
});

describe('withAnswerChoiceColumns', () => {
  // A sheet of ids, questions, Agree / Disagree / Not relevant marks and remarks: detection found no answer column.
  const columns = ['Ref', 'Requirement', 'Agree', 'Disagree', 'Not relevant', 'Remarks', ''];
  const detected = [mapping('One', { answerColumn: null, commentsColumn: 5 }), mapping('Two')];
  const agree = { column: 2, label: 'Agree' };
  const disagree = { column: 3, label: 'Disagree' };
  const notRelevant = { column: 4, label: 'Not relevant' };
  const choices = [agree, disagree, notRelevant];

  it('labels each chosen column by its header, in sheet order, the first also the answer column', () => {
    const result = withAnswerChoiceColumns(detected, 'One', [4, 2, 3], columns, detected);
    expect(result).toEqual([
      mapping('One', { answerColumn: 2, commentsColumn: 5, answerChoiceColumns: choices }),
      mapping('Two'),
    ]);
  });

  it('names a column without a header by its letter', () => {
    expect(defaultChoiceLabel(columns, 6)).toBe('Column G');
    expect(defaultChoiceLabel(columns, 9)).toBe('Column J');
    const [changed] = withAnswerChoiceColumns(detected, 'One', [2, 6], columns, detected);
    expect(changed?.answerChoiceColumns).toEqual([agree, { column: 6, label: 'Column G' }]);
  });

  it('never takes the question column, and takes a column from the comments or the ids', () => {
    const [changed] = withAnswerChoiceColumns(detected, 'One', [1, 2, 3, 5, 0], columns, detected);
    expect(changed).toEqual(
      mapping('One', {
        answerColumn: 0,
        commentsColumn: null,
        idColumn: null,
        answerChoiceColumns: [{ column: 0, label: 'Ref' }, agree, disagree, { column: 5, label: 'Remarks' }],
      }),
    );
  });

  it('keeps the label and mark a column already had, and at most ten columns', () => {
    const marked = [mapping('One', { answerChoiceColumns: [{ column: 2, label: 'Yes', mark: '●' }] })];
    const [changed] = withAnswerChoiceColumns(marked, 'One', [2, 3], columns, detected);
    expect(changed?.answerChoiceColumns).toEqual([{ column: 2, label: 'Yes', mark: '●' }, disagree]);
    const many = Array.from({ length: 14 }, (_, i) => i + 2);
    expect(withAnswerChoiceColumns(detected, 'One', many, columns, detected)[0]?.answerChoiceColumns).toHaveLength(10);
  });

  it('goes back to one answer column, giving back the remarks a choice took', () => {
    const marked = withAnswerChoiceColumns(detected, 'One', [2, 3, 5], columns, detected);
    expect(marked[0]?.commentsColumn).toBeNull();
    expect(withAnswerChoiceColumns(marked, 'One', [], columns, detected)).toStrictEqual(detected);
  });

  it("goes back to detection's answer column when it found one, or to none when it found marks", () => {
    const plain = [mapping('One')];
    const marked = withAnswerChoiceColumns(plain, 'One', [4, 5], columns, plain);
    expect(withAnswerChoiceColumns(marked, 'One', [], columns, plain)[0]).toStrictEqual(mapping('One'));
    const byMarks = [mapping('One', { answerColumn: 2, commentsColumn: 5, answerChoiceColumns: choices })];
    expect(withAnswerChoiceColumns(byMarks, 'One', [], columns, byMarks)[0]).toStrictEqual(
      mapping('One', { answerColumn: null, commentsColumn: 5 }),
    );
  });

  it('one answer column chosen by its select ends the marks', () => {
    const marked = withAnswerChoiceColumns(detected, 'One', [2, 3, 4], columns, detected);
    expect(withAnswerColumn(marked, 'One', 6, detected)[0]).toStrictEqual(
      mapping('One', { answerColumn: 6, commentsColumn: 5 }),
    );
  });

  it('drops a choice the question column takes over, and the marks when fewer than two are left', () => {
    const one = sheet('One', null);
    const sheets = [one, sheet('Two', null)];
    const three = withAnswerChoiceColumns(detected, 'One', [2, 3, 4], columns, detected);
    expect(withQuestionColumn(three, sheets, one, 2, detected)[0]).toMatchObject({
      questionColumn: 2,
      answerColumn: 3,
      answerChoiceColumns: [disagree, notRelevant],
    });
    const two = withAnswerChoiceColumns(detected, 'One', [2, 3], columns, detected);
    expect(withQuestionColumn(two, sheets, one, 3, detected)[0]).toStrictEqual(
      mapping('One', { questionColumn: 3, answerColumn: null, commentsColumn: 5 }),
    );
  });
});

describe('withChoiceLabel', () => {
  const columns = ['Ref', 'Requirement', 'Agree', 'Disagree'];
  const marked = [
    mapping('One', {
      answerChoiceColumns: [
        { column: 2, label: 'Agree', mark: '●' },
        { column: 3, label: 'Disagree' },
      ],
    }),
  ];

  it('renames one choice, keeping its mark', () => {
    expect(withChoiceLabel(marked, 'One', 2, ' Yes ', columns)[0]?.answerChoiceColumns).toEqual([
      { column: 2, label: 'Yes', mark: '●' },
      { column: 3, label: 'Disagree' },
    ]);
  });

  it("gives a blank label back the column's header", () => {
    const renamed = withChoiceLabel(marked, 'One', 3, 'No', columns);
    expect(withChoiceLabel(renamed, 'One', 3, '  ', columns)).toEqual(marked);
  });
});
