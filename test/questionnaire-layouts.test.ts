import ExcelJS from 'exceljs';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PreviewResponse, SheetMapping } from '../common/schemas/assessments';
import { assessmentBatches, auditLogs, questionnaireLayouts } from '../server/db/schema';
import { createTestApp, type TestApp } from './helpers/app';
import { call } from './helpers/api';
import { postMultipart } from './helpers/assessments';
import { createTenant, createTenantPair, type Tenant, type TestUser } from './helpers/factories';

// "The user corrects what the machine got wrong, once" (issue 34): a mapping corrected in the import preview is
// remembered for the organization against the workbook's layout, applied to the next file of that layout, and can be
// forgotten; the rows and columns a person sets are checked against the sheet like any input.

let app: TestApp;
beforeAll(async () => {
  app = await createTestApp();
});
afterAll(() => app.close());

const PREVIEW = '/api/assessments/preview';
const IMPORT = '/api/assessments/import';
const SHEET = 'Supplier Review';
const ANSWER = 4; // column E, "Our position": detection adds a Response column instead
const SIGN_OFF = 'Name and title of the officer signing off for the supplier:';

/**
 * A supplier review of an unfamiliar layout: a title block naming the customer, the header on row 4 with no label
 * detection reads as the answer column ("Our position"), ids in B, questions in D, a sign-off line under the table.
 */
async function supplierReview(customer: string, questions: readonly string[], prefix = 'SR'): Promise<Uint8Array> {
  const workbook = new ExcelJS.Workbook();
  const sheet = workbook.addWorksheet(SHEET);
  sheet.getCell('A1').value = `Supplier security review for ${customer}`;
  sheet.getCell('A2').value = `Prepared by the ${customer} procurement team`;
  sheet.getRow(4).values = ['', 'Ref', 'Area', 'Point to confirm', 'Our position', 'Evidence'];
  questions.forEach((question, index) => {
    sheet.getRow(5 + index).values = ['', `${prefix}-0${String(index + 1)}`, 'Security', question, '', ''];
  });
  // The sign-off block has a reference of its own, so detection reads it as a question.
  sheet.getRow(5 + questions.length).values = ['', 'SO-01', 'Sign-off', SIGN_OFF, '', ''];
  workbook.addWorksheet('Lists').getCell('A1').value = 'Yes';
  return new Uint8Array(await workbook.xlsx.writeBuffer());
}

const FIRST = [
  'Is multi-factor authentication enforced for all staff?',
  'Are access rights reviewed every quarter?',
  'Is the production network segmented from the office network?',
];
const SECOND = [
  'Is customer data encrypted at rest?',
  'Are backups restored and tested every year?',
  'Are administrator actions logged and reviewed?',
  'Do you run a vulnerability scan every month?',
];

const file = async (customer = 'Acme Corp', questions = FIRST) => ({
  name: `${customer} review.xlsx`,
  bytes: await supplierReview(customer, questions),
});

async function preview(
  as: TestUser,
  fields: Record<string, string> = {},
  upload?: { name: string; bytes: Uint8Array },
) {
  const res = await postMultipart(app, PREVIEW, as, fields, upload ?? (await file()));
  expect(res.statusCode, res.body).toBe(200);
  return res.data as PreviewResponse;
}

function mappingOf(previewed: PreviewResponse): SheetMapping {
  const mapping = previewed.sheets.find((sheet) => sheet.name === SHEET)?.mapping;
  if (!mapping) throw new Error(`no mapping for ${SHEET}: ${JSON.stringify(previewed.sheets)}`);
  return mapping;
}

/** Imports the first file with the answer column corrected to E and the questions ended above the sign-off. */
async function importCorrected(t: Tenant): Promise<SheetMapping> {
  const detected = mappingOf(await preview(t.users.contributor));
  expect(detected.answerColumn).not.toBe(ANSWER);
  const corrected: SheetMapping = {
    ...detected,
    answerColumn: ANSWER,
    commentsColumn: detected.commentsColumn === ANSWER ? null : detected.commentsColumn,
    lastRow: 4 + FIRST.length - 1,
  };
  const res = await postMultipart(
    app,
    IMPORT,
    t.users.contributor,
    { name: 'Acme review', mapping: JSON.stringify([corrected]) },
    await file(),
  );
  expect(res.statusCode, res.body).toBe(201);
  return corrected;
}

async function layoutsOf(organizationId: string) {
  return app.database.db
    .select()
    .from(questionnaireLayouts)
    .where(eq(questionnaireLayouts.organizationId, organizationId));
}

describe('remembered layouts', () => {
  it('an import with a corrected mapping is remembered, and the next file of that layout is read with it', async () => {
    const t = await createTenant(app);
    await importCorrected(t);
    const [saved] = await layoutsOf(t.organizationId);
    expect(saved).toMatchObject({ savedBy: t.users.contributor.id });

    // Another customer, other questions and ids of the same pattern: the same layout.
    const next = await preview(t.users.manager, {}, await file('Globex', SECOND));
    expect(next.rememberedLayout).toEqual({
      id: saved!.id,
      savedAt: saved!.savedAt.toISOString(),
      savedBy: { id: t.users.contributor.id, username: t.users.contributor.username },
    });
    expect(mappingOf(next).answerColumn).toBe(ANSWER);
    expect(next.questions.map((q) => q.question)).toEqual(SECOND);

    // Imported without a mapping, the file is read with the remembered one, and nothing new is remembered.
    const res = await postMultipart(
      app,
      IMPORT,
      t.users.contributor,
      { name: 'Globex review' },
      await file('Globex', SECOND),
    );
    expect(res.statusCode, res.body).toBe(201);
    const [batch] = await app.database.db
      .select({ mapping: assessmentBatches.mapping })
      .from(assessmentBatches)
      .where(eq(assessmentBatches.id, res.data.id as string));
    expect((batch!.mapping as SheetMapping[])[0]?.answerColumn).toBe(ANSWER);
    expect(await layoutsOf(t.organizationId)).toHaveLength(1);

    const audits = await app.database.db
      .select({ action: auditLogs.action })
      .from(auditLogs)
      .where(and(eq(auditLogs.organizationId, t.organizationId), eq(auditLogs.entityId, saved!.id)));
    expect(audits.map((a) => a.action)).toEqual(['questionnaire_layout_saved']);
  });

  it('a last question row above a sign-off is remembered from the end, so a longer file is read to its sign-off', async () => {
    const t = await createTenant(app);
    const detected = mappingOf(await preview(t.users.contributor));
    // The sign-off line under the table reads as a field to fill in: the person ends the questions above it.
    expect((await preview(t.users.contributor)).totalQuestions).toBe(FIRST.length + 1);
    const corrected = { ...detected, answerColumn: ANSWER, lastRow: 4 + FIRST.length - 1 };
    const res = await postMultipart(
      app,
      IMPORT,
      t.users.contributor,
      { name: 'Acme', mapping: JSON.stringify([corrected]) },
      await file(),
    );
    expect(res.statusCode, res.body).toBe(201);
    expect(res.data.totalQuestions).toBe(FIRST.length);

    const next = await preview(t.users.contributor, {}, await file('Globex', SECOND));
    expect(next.rememberedLayout).not.toBeNull();
    expect(next.questions.map((q) => q.question)).toEqual(SECOND);
    expect(mappingOf(next).lastRow).toBe(4 + SECOND.length - 1);
  });

  it('an import with the mapping detection found remembers nothing', async () => {
    const t = await createTenant(app);
    const detected = mappingOf(await preview(t.users.contributor));
    const res = await postMultipart(
      app,
      IMPORT,
      t.users.contributor,
      { name: 'As detected', mapping: JSON.stringify([detected]) },
      await file(),
    );
    expect(res.statusCode, res.body).toBe(201);
    expect(await layoutsOf(t.organizationId)).toEqual([]);
    expect((await preview(t.users.contributor)).rememberedLayout).toBeNull();
  });

  it('a file of another layout is not read with it: a renamed header', async () => {
    const t = await createTenant(app);
    await importCorrected(t);
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load((await supplierReview('Globex', SECOND)).buffer as ArrayBuffer);
    workbook.getWorksheet(SHEET)!.getCell('E4').value = 'Supplier position';
    const renamed = { name: 'other.xlsx', bytes: new Uint8Array(await workbook.xlsx.writeBuffer()) };
    expect((await preview(t.users.contributor, {}, renamed)).rememberedLayout).toBeNull();
  });

  it('forgetting it returns the preview to detection', async () => {
    const t = await createTenant(app);
    await importCorrected(t);
    const remembered = (await preview(t.users.contributor)).rememberedLayout;
    expect(remembered).not.toBeNull();

    const res = await call(app, 'DELETE', `/api/questionnaire-layouts/${remembered!.id}`, { as: t.users.contributor });
    expect(res.statusCode, res.body).toBe(200);
    const after = await preview(t.users.contributor);
    expect(after.rememberedLayout).toBeNull();
    expect(mappingOf(after).answerColumn).not.toBe(ANSWER);
    expect(await layoutsOf(t.organizationId)).toEqual([]);

    const again = await call(app, 'DELETE', `/api/questionnaire-layouts/${remembered!.id}`, {
      as: t.users.contributor,
    });
    expect(again.statusCode).toBe(404);
  });

  it('a remembered mapping that no longer fits the file is ignored, not an error', async () => {
    const t = await createTenant(app);
    const corrected = await importCorrected(t);
    await app.database.db
      .update(questionnaireLayouts)
      .set({ mapping: [{ ...corrected, questionColumn: 60 }] })
      .where(eq(questionnaireLayouts.organizationId, t.organizationId));
    const after = await preview(t.users.contributor);
    expect(after.rememberedLayout).toBeNull();
    expect(after.questions.map((q) => q.question)).toEqual([...FIRST, SIGN_OFF]);
  });
});

describe('rows and columns a person sets', () => {
  it('reads only the rows from the first to the last question row, with the comments and id columns chosen', async () => {
    const t = await createTenant(app);
    const detected = mappingOf(await preview(t.users.contributor));
    // Rows are 0-based like headerRow: index 5 is row 6 of the sheet, the second question.
    const mapping = { ...detected, answerColumn: ANSWER, commentsColumn: 5, idColumn: 2, firstRow: 5, lastRow: 5 };
    const res = await preview(t.users.contributor, { mapping: JSON.stringify([mapping]) });
    expect(res.questions.map((q) => [q.row, q.controlId, q.question])).toEqual([[6, 'Security', FIRST[1]]]);
    expect(mappingOf(res)).toMatchObject({ firstRow: 5, lastRow: 5, commentsColumn: 5, idColumn: 2 });
  });

  it('refuses a mapping that does not fit the sheet with a 400 and a sentence', async () => {
    const t = await createTenant(app);
    const detected = mappingOf(await preview(t.users.contributor));
    const bad: Array<[Partial<SheetMapping> & { sheet?: string }, RegExp]> = [
      [{ questionColumn: 40 }, /question column is outside the sheet/],
      [{ commentsColumn: 40 }, /comments column is outside the sheet/],
      [{ idColumn: 40 }, /id column is outside the sheet/],
      [{ headerRow: 7, lastRow: 6 }, /header row \(row 8\) is not above the last question row \(row 7\)/],
      [{ firstRow: 7, lastRow: 5 }, /first question row .*after the last/i],
      [{ firstRow: 500 }, /first question row is outside the sheet/],
      [{ lastRow: 500 }, /last question row is outside the sheet/],
      [{ headerRow: 500 }, /header row is outside the sheet/],
      [{ sheet: 'No such sheet' }, /no sheet with that name/],
      [
        {
          answerChoiceColumns: [
            { column: 4, label: 'Agree' },
            { column: 40, label: 'Disagree' },
          ],
        },
        /answer choice column is outside the sheet/,
      ],
      [
        {
          answerChoiceColumns: [
            { column: 3, label: 'Agree' },
            { column: 4, label: 'Disagree' },
          ],
        },
        /answer choice column D is also the question column/,
      ],
      [{ answerChoiceColumns: [{ column: 4, label: 'Agree' }] }, /needs 2 to 10 answer choice columns, not 1/],
    ];
    for (const [change, message] of bad) {
      for (const url of [PREVIEW, IMPORT]) {
        const res = await postMultipart(
          app,
          url,
          t.users.contributor,
          { name: 'Bad', mapping: JSON.stringify([{ ...detected, ...change }]) },
          await file(),
        );
        expect(res.statusCode, `${JSON.stringify(change)} ${res.body}`).toBe(400);
        expect(res.data.error, JSON.stringify(change)).toMatch(message);
        expect(typeof res.data.code).toBe('string');
      }
    }
    expect(await layoutsOf(t.organizationId)).toEqual([]);
  });
});

// A vendor assessment answered by a mark under Agree / Disagree / Not relevant: labels detection does not take for
// answer choices, so it reads no answer column at all until a person names the three columns.
const MARKED_SHEET = 'Vendor Assessment';
const AGREE = 2; // column C; D and E are Disagree and Not relevant, F the remarks

async function vendorAssessment(questions: readonly string[], marked: Record<number, number>): Promise<Uint8Array> {
  const workbook = new ExcelJS.Workbook();
  const sheet = workbook.addWorksheet(MARKED_SHEET);
  sheet.getRow(1).values = ['Ref', 'Requirement', 'Agree', 'Disagree', 'Not relevant', 'Remarks'];
  questions.forEach((question, index) => {
    const row = ['VA-0' + String(index + 1), question, '', '', '', ''];
    const column = marked[index];
    if (column !== undefined) row[column] = '●';
    sheet.getRow(2 + index).values = row;
  });
  return new Uint8Array(await workbook.xlsx.writeBuffer());
}

describe('answer-choice columns a person sets', () => {
  it('reads the marks under the columns chosen, and remembers them for the next file of that layout', async () => {
    const t = await createTenant(app);
    const first = { name: 'vendor.xlsx', bytes: await vendorAssessment(FIRST, { 1: AGREE + 1 }) };
    const detected = (await preview(t.users.contributor, {}, first)).sheets.find((s) => s.name === MARKED_SHEET);
    expect(detected?.mapping?.answerChoiceColumns).toBeUndefined();
    expect(detected?.prefilledAnswers).toBe(0);

    const corrected: SheetMapping = {
      ...detected!.mapping!,
      answerColumn: AGREE,
      answerChoiceColumns: [
        { column: AGREE, label: 'Yes' },
        { column: AGREE + 1, label: 'No' },
        { column: AGREE + 2, label: 'Not relevant' },
      ],
    };
    const read = await preview(t.users.contributor, { mapping: JSON.stringify([corrected]) }, first);
    expect(read.questions.map((q) => [q.existingAnswer, q.allowedValues])).toEqual([
      [null, ['Yes', 'No', 'Not relevant']],
      ['No', ['Yes', 'No', 'Not relevant']],
      [null, ['Yes', 'No', 'Not relevant']],
    ]);
    expect(read.prefilledAnswers).toBe(1);
    const res = await postMultipart(
      app,
      IMPORT,
      t.users.contributor,
      { name: 'Vendor', mapping: JSON.stringify([corrected]) },
      first,
    );
    expect(res.statusCode, res.body).toBe(201);
    const [saved] = await layoutsOf(t.organizationId);
    expect(saved?.mapping).toEqual([
      expect.objectContaining({
        answerChoiceColumns: [
          { column: AGREE, label: 'Yes', mark: '●' },
          { column: AGREE + 1, label: 'No', mark: '●' },
          { column: AGREE + 2, label: 'Not relevant', mark: '●' },
        ],
      }),
    ]);

    // The next file of that layout, with other marks, is read with the choice columns and no correction.
    const next = await preview(
      t.users.manager,
      {},
      {
        name: 'next.xlsx',
        bytes: await vendorAssessment(SECOND, { 0: AGREE + 2, 3: AGREE }),
      },
    );
    expect(next.rememberedLayout?.id).toBe(saved?.id);
    const sheet = next.sheets.find((s) => s.name === MARKED_SHEET);
    expect(sheet?.mapping?.answerChoiceColumns?.map((choice) => [choice.column, choice.label])).toEqual([
      [AGREE, 'Yes'],
      [AGREE + 1, 'No'],
      [AGREE + 2, 'Not relevant'],
    ]);
    expect(next.questions.map((q) => q.existingAnswer)).toEqual(['Not relevant', null, null, 'Yes']);
    expect(sheet?.prefilledAnswers).toBe(2);
  });
});

describe('who may use a remembered layout', () => {
  it("another organization's layout is never applied, and forgetting it is a 404", async () => {
    const { a, b } = await createTenantPair(app);
    await importCorrected(a);
    const [saved] = await layoutsOf(a.organizationId);

    const theirs = await preview(b.users.admin);
    expect(theirs.rememberedLayout).toBeNull();
    expect(mappingOf(theirs).answerColumn).not.toBe(ANSWER);

    const res = await call(app, 'DELETE', `/api/questionnaire-layouts/${saved!.id}`, { as: b.users.admin });
    expect(res.statusCode).toBe(404);
    expect(res.data.code).toBe('not_found');
    expect(await layoutsOf(a.organizationId)).toHaveLength(1);
  });

  it('a viewer may not forget one (403); bad ids are a 400', async () => {
    const t = await createTenant(app);
    await importCorrected(t);
    const [saved] = await layoutsOf(t.organizationId);
    const res = await call(app, 'DELETE', `/api/questionnaire-layouts/${saved!.id}`, { as: t.users.viewer });
    expect(res.statusCode).toBe(403);
    expect(res.data.code).toBe('forbidden');
    const bad = await call(app, 'DELETE', '/api/questionnaire-layouts/not-an-id', { as: t.users.contributor });
    expect(bad.statusCode).toBe(400);
    expect(await layoutsOf(t.organizationId)).toHaveLength(1);
  });
});
