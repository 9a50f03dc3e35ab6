import type { Session } from './http';
import { askQuestion, type AskKind } from './questions';

/** Every failed request of the measured phases: any non-2xx status or network error (status 0). */
export class ErrorLog {
  readonly entries: Array<{ what: string; status: number; message: string }> = [];
  record(what: string, status: number, message: string) {
    this.entries.push({ what, status, message: message.slice(0, 300) });
  }
  get count() {
    return this.entries.length;
  }
}

/** One `POST /api/qa/ask`: when it ended (ms since the load started), how long it took, and where it went. */
export type Sample = { endedAt: number; ms: number; ok: boolean; api: number; kind: AskKind; answerType: string };

/** Nearest-rank percentile of a list of milliseconds. */
export function percentile(ms: number[], p: number): number {
  if (ms.length === 0) return 0;
  const sorted = [...ms].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(p * sorted.length) - 1))] ?? 0;
}

/**
 * Each user asks one question after another (a closed loop: the next question leaves when the answer arrived, as a
 * person waits for it) until `seconds` have passed. Users ask different questions: user u's k-th question is
 * askQuestion(u * 7919 + k).
 */
export async function askLoad(
  users: Session[],
  apiIndexOf: (base: string) => number,
  seconds: number,
  errors: ErrorLog,
): Promise<{ samples: Sample[]; seconds: number }> {
  const samples: Sample[] = [];
  const t0 = performance.now();
  const end = t0 + seconds * 1000;
  await Promise.all(
    users.map(async (user, u) => {
      const api = apiIndexOf(user.base);
      const what = `POST ${user.base}/api/qa/ask (api-${api + 1})`;
      for (let k = 0; performance.now() < end; k++) {
        const { kind, question } = askQuestion(u * 7919 + k);
        const start = performance.now();
        let ok = false;
        let answerType = 'error';
        try {
          const res = await fetch(`${user.base}/api/qa/ask`, {
            method: 'POST',
            headers: { cookie: user.cookie, 'content-type': 'application/json' },
            body: JSON.stringify({ question }),
          });
          const text = await res.text();
          ok = res.status >= 200 && res.status < 300;
          if (ok) answerType = (JSON.parse(text) as { answerType: string }).answerType;
          else errors.record(what, res.status, text);
        } catch (err) {
          errors.record(what, 0, err instanceof Error ? `${err.message} ${String(err.cause ?? '')}` : String(err));
        }
        const now = performance.now();
        samples.push({ endedAt: now - t0, ms: now - start, ok, api, kind, answerType });
      }
    }),
  );
  return { samples, seconds: (performance.now() - t0) / 1000 };
}

/** Requests/s and latency percentiles of the samples that ended inside [from, to) ms. */
export function summarize(samples: Sample[], from = 0, to = Number.POSITIVE_INFINITY) {
  const inside = samples.filter((s) => s.endedAt >= from && s.endedAt < to);
  const ms = inside.map((s) => s.ms);
  const last = samples.reduce((m, s) => Math.max(m, s.endedAt), 0);
  const span = (Math.min(to, last) - from) / 1000;
  return {
    requests: inside.length,
    perSecond: span > 0 ? inside.length / span : 0,
    p50: percentile(ms, 0.5),
    p95: percentile(ms, 0.95),
    p99: percentile(ms, 0.99),
    max: ms.reduce((m, x) => Math.max(m, x), 0),
  };
}
