// Entry point of the embedding thread: installs tsx before importing the TypeScript body (a worker thread does not
// inherit loader hooks registered at run time; see server/ingest/thread-bootstrap.mjs).
import { register } from 'tsx/esm/api';

register();
await import('./embed-thread-worker.ts');
