// Entry point of an extraction thread. Verity runs its TypeScript through tsx, but a worker thread does not inherit
// loader hooks installed at run time with `register()` (that is how `npm start` loads tsx), and under vitest the
// test runner's own transform does not reach worker threads either. So the thread installs tsx itself before
// importing the TypeScript body. This works the same under `npm start` (register() in scripts/start.mjs), under
// `node --import tsx` / the tsx CLI (the thread also inherits those flags; a second registration is harmless) and
// under vitest — each is covered by thread.test.ts or was checked by hand.
import { register } from 'tsx/esm/api';

register();
await import('./thread-worker.ts');
