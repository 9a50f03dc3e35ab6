import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { AssessmentRun } from './assessment';
import { summarize, type Sample } from './load';

const ms = (x: number) => `${x.toFixed(0)} ms`;
const one = (x: number) => x.toFixed(1);

/** The one-minute load average next to the core count: figures taken on a busy machine say so. */
export function loadNote(): string {
  const [oneMinute] = os.loadavg();
  return `load average ${(oneMinute ?? 0).toFixed(1)} on ${os.cpus().length} cores`;
}

export function loadTable(rows: Array<[string, Sample[], number?, number?]>): string[] {
  const out = ['| asks | count | asks/s | p50 | p95 | p99 | max |', '|---|---|---|---|---|---|---|'];
  for (const [title, samples, from, to] of rows) {
    const s = summarize(samples, from, to);
    out.push(
      `| ${title} | ${s.requests} | ${one(s.perSecond)} | ${ms(s.p50)} | ${ms(s.p95)} | ${ms(s.p99)} | ${ms(s.max)} |`,
    );
  }
  return out;
}

/** "library→canonical 431, …": what kind of question got what kind of answer. */
export function answerMix(samples: Sample[]): string {
  const mix: Record<string, number> = {};
  for (const s of samples) mix[`${s.kind}→${s.answerType}`] = (mix[`${s.kind}→${s.answerType}`] ?? 0) + 1;
  return Object.entries(mix)
    .sort()
    .map(([k, v]) => `${k} ${v}`)
    .join(', ');
}

/** CPU seconds per source, and the sum of the sources whose name starts with each prefix. */
export function cpuLine(cpu: Record<string, number>): string {
  return Object.entries(cpu)
    .map(([k, v]) => `${k} ${v.toFixed(1)} s`)
    .join(', ');
}

export function sumOf(cpu: Record<string, number>, prefix: string): number {
  return Object.entries(cpu)
    .filter(([k]) => k.startsWith(prefix))
    .reduce((s, [, v]) => s + v, 0);
}

export type AssessmentRow = { title: string; run: AssessmentRun; cpu: Record<string, number> };

export function assessmentTable(rows: AssessmentRow[]): string[] {
  const out = [
    '| setup | import → completed | questions/s | worker CPU / question | PostgreSQL CPU / question | answers |',
    '|---|---|---|---|---|---|',
  ];
  for (const { title, run, cpu } of rows) {
    const perQuestion = (prefix: string) =>
      Object.keys(cpu).some((k) => k.startsWith(prefix))
        ? `${((1000 * sumOf(cpu, prefix)) / run.questions).toFixed(1)} ms`
        : 'n/a';
    out.push(
      `| ${title} | ${run.seconds.toFixed(1)} s | ${one(run.perSecond)} | ${perQuestion('worker')} | ` +
        `${perQuestion('PostgreSQL')} | ${Object.entries(run.mix)
          .map(([k, v]) => `${v} ${k}`)
          .join(', ')} |`,
    );
  }
  return out;
}

/** Warning and error lines the children logged (pino levels 40 and 50+), per child log file. */
export function childLogProblems(dir: string): string {
  return fs
    .readdirSync(dir)
    .filter((f) => f.endsWith('.log'))
    .sort()
    .map((f) => {
      const lines = fs.readFileSync(path.join(dir, f), 'utf8').split('\n');
      const warn = lines.filter((l) => l.includes('"level":40')).length;
      const error = lines.filter((l) => /"level":(50|60)/.test(l)).length;
      return `${f.replace(/\.log$/, '')} ${warn} warnings / ${error} errors`;
    })
    .join(', ');
}
