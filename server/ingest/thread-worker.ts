// The body of an extraction thread (started by thread.ts through thread-bootstrap.mjs): extracts each file it is
// sent, one at a time, and replies with the result or the error.
import { parentPort } from 'node:worker_threads';
import { extractDocument } from './pipeline';
import { type ExtractionReply, type ExtractionRequest, serializeError } from './thread-protocol';

const port = parentPort;
if (!port) throw new Error('thread-worker.ts runs inside a worker thread started by thread.ts.');

port.on('message', (request: ExtractionRequest) => {
  void extractDocument(request.bytes, request.originalName).then(
    (result) => reply({ id: request.id, ok: true, result }),
    (error: unknown) => reply({ id: request.id, ok: false, error: serializeError(error) }),
  );
});

function reply(message: ExtractionReply): void {
  port?.postMessage(message);
}
