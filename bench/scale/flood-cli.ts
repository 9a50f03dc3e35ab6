/**
 * The noisy organization's flood (noisy.ts `flood`) in a process of its own, started by bench:scale: the quiet
 * organization's timer must not share an event loop with twenty flooding clients. It runs at the bench's priority
 * unless FLOOD_NICE says otherwise: a lower one would take the server's cores from the flood too, and it would
 * re-send its refused requests less often than a client on a machine of its own.
 */
import fs from 'node:fs';
import os from 'node:os';
import type { Session } from './http';
import { flood } from './noisy';

type Spec = { users: Session[]; batchers: number; seconds: number; startAt: number; out: string };

const spec = JSON.parse(process.env.FLOOD_SPEC ?? '{}') as Spec;
if (process.env.FLOOD_NICE) {
  try {
    os.setPriority(Number(process.env.FLOOD_NICE));
  } catch {
    // Not allowed here (some containers): the flood then runs at the bench's own priority.
  }
}
// Started a moment before the quiet user's timer, so both begin together whatever this process's start-up took.
await new Promise((r) => setTimeout(r, Math.max(0, spec.startAt - Date.now())));
const tally = await flood(spec.users, spec.batchers, spec.seconds - Math.max(0, (Date.now() - spec.startAt) / 1000));
fs.writeFileSync(spec.out, JSON.stringify(tally));
