import { isUtf8 } from 'node:buffer';
import { unzipSync, zipSync } from 'fflate';
import { WriteBackError } from './write-types';
import {
  applySplices,
  attributeValue,
  decodeXmlEntities,
  type ElementSpan,
  findElement,
  isTrue,
  rootPrefix,
  serializeAttributes,
  withAttribute,
} from './write-xml';

/** The parts of an OPC package (the zip inside an .xlsx), keyed by entry name, in the original entry order. */
export type PackageParts = Record<string, Uint8Array>;

// The original already passed the intake's zip guard; this is a backstop against a file swapped in storage.
const MAX_UNZIPPED_BYTES = 512 * 1024 * 1024;

// Excel itself stamps every entry with 1980-01-01; a fixed time also makes the output deterministic.
const ZIP_TIME = new Date(1980, 0, 1);

export function openPackage(bytes: Uint8Array): PackageParts {
  let total = 0;
  try {
    return unzipSync(bytes, {
      filter: (file) => {
        total += file.originalSize;
        if (total > MAX_UNZIPPED_BYTES) throw new WriteBackError('too_large', 'The workbook is too large to fill in.');
        return true;
      },
    });
  } catch (error) {
    if (error instanceof WriteBackError) throw error;
    throw new WriteBackError('corrupt', 'The original workbook is damaged and cannot be filled in.');
  }
}

export function savePackage(parts: PackageParts): Uint8Array {
  return zipSync(parts, { level: 6, mtime: ZIP_TIME });
}

/** A part's name in the package, matched case-insensitively as OPC part names are. */
export function findPart(parts: PackageParts, name: string): string | null {
  if (name in parts) return name;
  const lower = name.toLowerCase();
  return Object.keys(parts).find((key) => key.toLowerCase() === lower) ?? null;
}

/** An XML part as text, and how to turn edited text back into bytes the same way it was encoded. */
export type XmlText = { text: string; encode: (text: string) => Uint8Array };

export function readXml(bytes: Uint8Array, name: string): XmlText {
  const utf16 =
    bytes[0] === 0xff && bytes[1] === 0xfe ? 'utf-16le' : bytes[0] === 0xfe && bytes[1] === 0xff ? 'utf-16be' : null;
  try {
    if (utf16) {
      // Excel never writes UTF-16 parts but accepts them; an edited one is written back as UTF-8, declared so.
      const text = new TextDecoder(utf16, { fatal: true }).decode(bytes);
      return {
        text,
        encode: (edited) =>
          new TextEncoder().encode(edited.replace(/(<\?xml[^>]*encoding=["'])UTF-16(["'])/i, '$1UTF-8$2')),
      };
    }
    if (!isUtf8(bytes)) throw new Error('not UTF-8');
    // Buffer's decoder, not TextDecoder: it yields a one-byte string for ASCII text, which V8 searches several
    // times faster than the two-byte string TextDecoder returns. A byte-order mark is set aside and restored, as
    // it alone would force the two-byte form.
    const bom = bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf ? 3 : 0;
    const text = Buffer.from(bytes.buffer, bytes.byteOffset + bom, bytes.byteLength - bom).toString('utf8');
    return {
      text,
      encode: (edited) => {
        const encoded = Buffer.from(edited, 'utf8');
        return bom === 0 ? encoded : Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), encoded]);
      },
    };
  } catch {
    throw new WriteBackError('corrupt', `The workbook part ${name} is not valid text and cannot be filled in.`);
  }
}

type Relationship = ElementSpan & { id: string; type: string; target: string; external: boolean };

function relationships(xml: string): Relationship[] {
  const prefix = rootPrefix(xml, 'Relationships') ?? '';
  const found: Relationship[] = [];
  for (
    let rel = findElement(xml, `${prefix}Relationship`);
    rel;
    rel = findElement(xml, `${prefix}Relationship`, rel.end)
  ) {
    found.push({
      ...rel,
      id: attributeValue(rel.attributes, 'Id') ?? '',
      type: attributeValue(rel.attributes, 'Type') ?? '',
      target: attributeValue(rel.attributes, 'Target') ?? '',
      external: attributeValue(rel.attributes, 'TargetMode') === 'External',
    });
  }
  return found;
}

/** The .rels part of a part: xl/workbook.xml → xl/_rels/workbook.xml.rels. */
function relsPathOf(partName: string): string {
  const slash = partName.lastIndexOf('/');
  return `${partName.slice(0, slash + 1)}_rels/${partName.slice(slash + 1)}.rels`;
}

/** Resolves a relationship target against the part that holds the relationship. */
function resolveTarget(sourcePart: string, target: string): string {
  let decoded = target;
  try {
    decoded = decodeURIComponent(target);
  } catch {
    // A target with a stray '%' is used as written.
  }
  const base = decoded.startsWith('/') ? [] : sourcePart.split('/').slice(0, -1);
  for (const segment of decoded.split('/')) {
    if (segment === '' || segment === '.') continue;
    if (segment === '..') base.pop();
    else base.push(segment);
  }
  return base.join('/');
}

function readRels(parts: PackageParts, ofPart: string): { name: string; xml: XmlText; rels: Relationship[] } | null {
  const name = findPart(parts, relsPathOf(ofPart));
  const bytes = name ? parts[name] : undefined;
  if (!name || !bytes) return null;
  const xml = readXml(bytes, name);
  return { name, xml, rels: relationships(xml.text) };
}

/** A worksheet as the workbook lists it. */
export type SheetEntry = { name: string; part: string; kind: 'worksheet' | 'other' };

export type WorkbookInfo = { part: string; sheets: SheetEntry[] };

const corrupt = () => new WriteBackError('corrupt', 'The original workbook is damaged and cannot be filled in.');

/** The workbook part and its sheets, found the way Excel finds them: _rels/.rels → workbook → its rels. */
export function readWorkbook(parts: PackageParts): WorkbookInfo {
  const rootRels = readRels(parts, '');
  const office = rootRels?.rels.find((r) => r.type.endsWith('/officeDocument') && !r.external);
  const part = findPart(parts, office ? resolveTarget('', office.target) : 'xl/workbook.xml');
  const bytes = part ? parts[part] : undefined;
  if (!part || !bytes) throw corrupt();
  const xml = readXml(bytes, part).text;
  const rels = readRels(parts, part)?.rels ?? [];
  const prefix = rootPrefix(xml, 'workbook');
  if (prefix === null) throw corrupt();
  const list = findElement(xml, `${prefix}sheets`);
  if (!list) throw corrupt();
  const sheets: SheetEntry[] = [];
  for (
    let sheet = findElement(xml, `${prefix}sheet`, list.openTagEnd, list.contentEnd);
    sheet;
    sheet = findElement(xml, `${prefix}sheet`, sheet.end, list.contentEnd)
  ) {
    // The relationship id is the namespaced `r:id` (any prefix); `sheetId` is a different attribute.
    const idAttribute = sheet.attributes.find((a) => /^[^:]+:id$/.test(a.name));
    const rel = idAttribute ? rels.find((r) => r.id === decodeXmlEntities(idAttribute.raw)) : undefined;
    const name = attributeValue(sheet.attributes, 'name');
    if (!rel || name === null) continue;
    const target = findPart(parts, resolveTarget(part, rel.target));
    if (!target) continue;
    sheets.push({ name, part: target, kind: rel.type.endsWith('/worksheet') ? 'worksheet' : 'other' });
  }
  return { part, sheets };
}

/**
 * Indexes of the shared strings that are empty: a cell pointing at one looks filled in the sheet's XML but shows
 * nothing (exceljs and some exporters write blank cells so). Empty when the workbook has no shared strings.
 */
export function emptySharedStrings(parts: PackageParts, workbookPart: string): Set<number> {
  const empty = new Set<number>();
  const rel = readRels(parts, workbookPart)?.rels.find((r) => r.type.endsWith('/sharedStrings') && !r.external);
  const name = rel ? findPart(parts, resolveTarget(workbookPart, rel.target)) : null;
  const bytes = name ? parts[name] : undefined;
  if (!name || !bytes) return empty;
  const xml = readXml(bytes, name).text;
  const prefix = rootPrefix(xml, 'sst');
  if (prefix === null) return empty;
  let index = 0;
  for (let si = findElement(xml, `${prefix}si`); si; si = findElement(xml, `${prefix}si`, si.end)) {
    // Text runs hold text between their tags; an entry with none is empty.
    const inner = si.selfClosing ? '' : xml.slice(si.openTagEnd, si.contentEnd);
    if (!/<(?:[\w.-]+:)?t(?:\s[^>]*)?>[^<]/.test(inner)) empty.add(index);
    index += 1;
  }
  return empty;
}

/**
 * Removes the calculation chain (the part, its relationship and its content-type override). It lists every formula
 * cell; one that lists a cell which no longer has a formula makes Excel report the file as damaged, while a missing
 * chain is simply rebuilt on the next calculation.
 */
export function dropCalcChain(parts: PackageParts, workbookPart: string): void {
  const rels = readRels(parts, workbookPart);
  const rel = rels?.rels.find((r) => r.type.endsWith('/calcChain'));
  if (!rels || !rel) return;
  const chainPart = findPart(parts, resolveTarget(workbookPart, rel.target));
  parts[rels.name] = rels.xml.encode(applySplices(rels.xml.text, [{ start: rel.start, end: rel.end, text: '' }]));
  if (!chainPart) return;
  delete parts[chainPart];
  const typesName = findPart(parts, '[Content_Types].xml');
  const typesBytes = typesName ? parts[typesName] : undefined;
  if (!typesName || !typesBytes) return;
  const types = readXml(typesBytes, typesName);
  const prefix = rootPrefix(types.text, 'Types') ?? '';
  const removals = [];
  for (
    let o = findElement(types.text, `${prefix}Override`);
    o;
    o = findElement(types.text, `${prefix}Override`, o.end)
  ) {
    const partName = attributeValue(o.attributes, 'PartName') ?? '';
    if (partName.replace(/^\//, '').toLowerCase() === chainPart.toLowerCase())
      removals.push({ start: o.start, end: o.end, text: '' });
  }
  if (removals.length > 0) parts[typesName] = types.encode(applySplices(types.text, removals));
}

// The last elements CT_Workbook's sequence places before <calcPr>.
const BEFORE_CALC_PR = ['sheets', 'functionGroups', 'externalReferences', 'definedNames'];

// Elements that CT_Workbook's sequence places after <calcPr>, so a new one goes before the first of them.
const AFTER_CALC_PR = [
  'oleSize',
  'customWorkbookViews',
  'pivotCaches',
  'smartTagPr',
  'smartTagTypes',
  'webPublishing',
  'fileRecoveryPr',
  'webPublishObjects',
  'extLst',
];

/**
 * Asks Excel to recalculate every formula when the file is opened. Cached results of formulas that read answer
 * cells (a summary sheet's COUNTIF of "Yes") would otherwise show the values from before the answers were written.
 */
export function requestFullCalcOnLoad(parts: PackageParts, workbookPart: string): void {
  const bytes = parts[workbookPart];
  if (!bytes) return;
  const xml = readXml(bytes, workbookPart);
  const prefix = rootPrefix(xml.text, 'workbook') ?? '';
  const calcPr = findElement(xml.text, `${prefix}calcPr`);
  if (calcPr) {
    if (isTrue(attributeValue(calcPr.attributes, 'fullCalcOnLoad'))) return;
    const attributes = withAttribute(calcPr.attributes, 'fullCalcOnLoad', '1');
    const tag = `<${prefix}calcPr${serializeAttributes(attributes)}${calcPr.selfClosing ? '/>' : '>'}`;
    parts[workbookPart] = xml.encode(
      applySplices(xml.text, [{ start: calcPr.start, end: calcPr.openTagEnd, text: tag }]),
    );
    return;
  }
  // Searched from the end of the elements that precede <calcPr>: an <extLst> also occurs inside <workbookView>.
  const from = Math.max(0, ...BEFORE_CALC_PR.map((name) => findElement(xml.text, `${prefix}${name}`)?.end ?? 0));
  const positions = AFTER_CALC_PR.map((name) => findElement(xml.text, `${prefix}${name}`, from)?.start ?? -1).filter(
    (at) => at !== -1,
  );
  const at = positions.length > 0 ? Math.min(...positions) : xml.text.lastIndexOf(`</${prefix}workbook>`);
  if (at === -1) return;
  parts[workbookPart] = xml.encode(
    applySplices(xml.text, [{ start: at, end: at, text: `<${prefix}calcPr fullCalcOnLoad="1"/>` }]),
  );
}
