// Entry point of an extraction thread when Verity runs from its TypeScript sources (`npm run dev`, tests; the compiled
// server in dist/server starts its own compiled entry instead, see server/thread-entry.ts). A worker thread does not
// inherit loader hooks installed at run time with `register()`, and under vitest the test runner's own transform
// does not reach worker threads either. So the thread installs tsx itself before importing the TypeScript body.
// This works the same under tsx registered at run time, under `node --import tsx` / the tsx CLI (the thread also
// inherits those flags; a second registration is harmless) and under vitest — each is covered by thread.test.ts.
import { register } from 'tsx/esm/api';

register();
await import('./thread-worker.ts');
