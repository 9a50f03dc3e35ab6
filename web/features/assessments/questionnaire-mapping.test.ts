import { describe, expect, it } from 'vitest';
import type { PreviewResponse, SheetMapping } from '../../../common/schemas/assessments';
import {
  columnLabel,
  columnLetter,
  mappingOf,
  withAnswerColumn,
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
