import { setImmediate as yieldToEventLoop } from 'node:timers/promises';

type Waiter = { key: string; start: () => void };

/**
 * A fixed number of lanes for the engine's steps, shared fairly between keys (organizations) by the time they
 * have used (start-time fair queuing): a free lane goes to the waiting key that has used the least, and a key that
 * was idle starts level with the busiest recent one rather than with a credit. So one organization's 100-question
 * batches or 5,000-question assessment make another's single question wait for at most one step in progress, not
 * for their whole queue. With more than one lane, no key holds the last free one: another organization's step starts
 * at once instead of waiting for a step in progress, and while another key has work a key holds no more than an
 * equal share of the lanes. Within a key, steps run in arrival order.
 *
 * A step starts on a fresh turn of the event loop: on the embedded database a query resolves without I/O, so
 * back-to-back steps would otherwise be one chain of microtasks that no other request (not even /api/health)
 * could get between. On PostgreSQL (`yieldAlways: false`) only a key with more steps waiting takes that turn.
 */
export class FairLanes {
  private running = 0;
  private readonly waiting: Waiter[] = [];
  /** Milliseconds of lane time each key has used, on a clock that starts new keys at `floor`. */
  private readonly used = new Map<string, number>();
  private floor = 0;
  /** Lanes each key holds now; one key may hold all but one, so another's step never waits for a lane. */
  private readonly holding = new Map<string, number>();
  private readonly perKey: number;

  /**
   * `yieldAlways: false` (PostgreSQL, where every query is real I/O) skips the turn of the event loop before a step
   * of a key with nothing else waiting: a single question's steps then run as soon as their lane is free, and only a
   * backlogged key (a batch, an assessment, a flood) gives the process a turn between its steps.
   */
  constructor(
    private readonly lanes: number,
    private readonly opts: { yieldAlways: boolean } = { yieldAlways: true },
  ) {
    if (!(lanes >= 1)) throw new Error('FairLanes needs at least one lane');
    this.perKey = Math.max(1, lanes - 1);
  }

  async run<T>(key: string, step: () => Promise<T>): Promise<T> {
    await this.acquire(key);
    const started = performance.now();
    try {
      if (this.opts.yieldAlways || this.waiting.some((w) => w.key === key)) await yieldToEventLoop();
      return await step();
    } finally {
      this.used.set(key, this.usedBy(key) + (performance.now() - started));
      this.running -= 1;
      const held = (this.holding.get(key) ?? 1) - 1;
      if (held > 0) this.holding.set(key, held);
      else this.holding.delete(key);
      // The lane is handed on after the caller has had its turn: a question's next step is queued as soon as its
      // previous one returns, and must be able to compete for the lane it just freed.
      setImmediate(() => this.dispatch());
    }
  }

  /** Steps waiting for a lane, for tests and diagnostics. */
  get queued(): number {
    return this.waiting.length;
  }

  private usedBy(key: string): number {
    return Math.max(this.used.get(key) ?? 0, this.floor);
  }

  private acquire(key: string): Promise<void> {
    return new Promise((start) => {
      this.waiting.push({ key, start });
      this.dispatch();
    });
  }

  private dispatch(): void {
    while (this.running < this.lanes && this.waiting.length > 0) {
      // The first waiter of the key that has used the least (ties: whoever came first), among the keys that do
      // not already hold their most lanes.
      let best = -1;
      const most = this.mostPerKey();
      for (let i = 0; i < this.waiting.length; i += 1) {
        const w = this.waiting[i];
        if (!w || (this.holding.get(w.key) ?? 0) >= most) continue;
        const b = best >= 0 ? this.waiting[best] : undefined;
        if (!b || this.usedBy(w.key) < this.usedBy(b.key)) best = i;
      }
      if (best < 0) break;
      const [next] = this.waiting.splice(best, 1);
      if (!next) break;
      this.holding.set(next.key, (this.holding.get(next.key) ?? 0) + 1);
      // The clock moves with the keys served: a key that returns after an idle spell has no credit to spend.
      this.floor = Math.max(this.floor, this.used.get(next.key) ?? 0);
      this.forgetIdleKeys();
      this.running += 1;
      next.start();
    }
  }

  /**
   * Lanes one key may hold now: all but one while it is the only key with work, an equal share (at least one) once
   * others have work too. Each step of a key is CPU work on this one thread between its queries, so every step of
   * another key in progress delays the continuations of a quiet organization's step: with the busy key down to one
   * lane, a quiet question's steps interleave with one of its steps, not two.
   */
  private mostPerKey(): number {
    const active = new Set(this.holding.keys());
    for (const w of this.waiting) active.add(w.key);
    return active.size <= 1 ? this.perKey : Math.max(1, Math.floor(this.lanes / active.size));
  }

  /** Keys at or below the floor count as the floor anyway: dropping them keeps the map as small as the busy set. */
  private forgetIdleKeys(): void {
    if (this.used.size < 1000) return;
    const waitingKeys = new Set(this.waiting.map((w) => w.key));
    for (const [key, ms] of this.used) if (ms <= this.floor && !waitingKeys.has(key)) this.used.delete(key);
  }
}

/** The process's lanes for answering questions (QA_ENGINE_LANES), shared by the API and the in-process worker. */
let engine = new FairLanes(3);

export function engineLanes(): FairLanes {
  return engine;
}

export function setEngineLanes(lanes: number, opts: { yieldAlways: boolean } = { yieldAlways: true }): void {
  engine = new FairLanes(lanes, opts);
}

/** One step of answering, in the organization's turn of the engine's lanes. */
export function inLane<T>(organizationId: string, step: () => Promise<T> | T): Promise<T> {
  return engineLanes().run(organizationId, async () => step());
}
