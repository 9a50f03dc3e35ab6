// The body of the embedding thread (started by embed-thread.ts): loads the model once and embeds each batch it is
// sent, one at a time, so bulk embedding never holds the event loop that serves requests.
import { parentPort, workerData } from 'node:worker_threads';
import { LocalEmbedder } from './local-embedder';
import type { EncoderSpec } from './model-spec';
import type { CloseRequest, EmbedReply, EmbedRequest } from './embed-thread';

const port = parentPort;
if (!port) throw new Error('embed-thread-worker.ts runs inside a worker thread started by embed-thread.ts.');
const { dir, spec } = workerData as { dir: string; spec: EncoderSpec };
const loading = LocalEmbedder.load(dir, spec);

/** Runs begun and not yet answered: a closing thread waits for them before it frees the model. */
const running = new Set<Promise<unknown>>();

port.on('message', (request: EmbedRequest | CloseRequest) => {
  if ('close' in request) {
    void Promise.allSettled([...running])
      .then(() => loading)
      .then((model) => model.release())
      .catch(() => undefined)
      .finally(() => port.close());
    return;
  }
  const run = loading
    .then((model) => model.embed(request.texts, request.kind))
    .then(
      (vectors) => {
        const flat = new Float32Array(vectors.length * spec.dimension);
        vectors.forEach((v, i) => flat.set(v, i * spec.dimension));
        const reply: EmbedReply = { id: request.id, ok: true, vectors: flat };
        port.postMessage(reply, [flat.buffer]);
      },
      (error: unknown) => {
        const reply: EmbedReply = {
          id: request.id,
          ok: false,
          message: error instanceof Error ? error.message : String(error),
        };
        port.postMessage(reply);
      },
    );
  running.add(run);
  void run.finally(() => running.delete(run));
});
