import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

// `INTAKE_AS=xls`: every .xlsx of the folder saved as Excel 97–2003 by LibreOffice (another program's writer, the
// records a customer's old tooling produces), with the same truth, so the .xls reader is measured on real layouts.
// LibreOffice is asked to recalculate on load: without it, it stores 0 as the result of every formula, and a question
// that is a formula's text (HECVAT 4 looks its questions up from a hidden sheet) would arrive empty, which no file
// saved by Excel does. Development tool only: `apt-get install -y --no-install-recommends libreoffice-calc-nogui`.

const RECALCULATE_ON_LOAD = `<?xml version="1.0" encoding="UTF-8"?>
<oor:items xmlns:oor="http://openoffice.org/2001/registry" xmlns:xs="http://www.w3.org/2001/XMLSchema">
<item oor:path="/org.openoffice.Office.Calc/Formula/Load"><prop oor:name="OOXMLRecalcMode" oor:op="fuse"><value>0</value></prop></item>
</oor:items>
`;

/**
 * A temporary folder holding the .xls twins of `dir`'s .xlsx files (those whose name contains `only`) and their
 * truth.json; its path. The caller removes it.
 */
export function xlsTwins(dir: string, only = ''): string {
  const out = fs.mkdtempSync(path.join(os.tmpdir(), 'intake-xls-'));
  const profile = path.join(out, '.profile');
  fs.mkdirSync(path.join(profile, 'user'), { recursive: true });
  fs.writeFileSync(path.join(profile, 'user', 'registrymodifications.xcu'), RECALCULATE_ON_LOAD);

  const truth = JSON.parse(fs.readFileSync(path.join(dir, 'truth.json'), 'utf8')) as {
    files: Record<string, { format: string }>;
  };
  const files: Record<string, { format: string }> = {};
  for (const [name, file] of Object.entries(truth.files)) {
    if (file.format !== 'xlsx' || (only && !name.includes(only))) continue;
    execFileSync(
      'soffice',
      [
        `-env:UserInstallation=file://${profile}`,
        '--headless',
        '--convert-to',
        'xls:MS Excel 97',
        '--outdir',
        out,
        path.join(dir, name),
      ],
      { stdio: 'ignore', timeout: 300_000 },
    );
    const twin = name.replace(/\.xlsx$/i, '.xls');
    if (!fs.existsSync(path.join(out, twin))) throw new Error(`LibreOffice did not convert ${name}`);
    files[twin] = { ...file, format: 'xls' };
  }
  fs.writeFileSync(path.join(out, 'truth.json'), JSON.stringify({ ...truth, files }));
  return out;
}
