// `npm start`: compiles the server and builds the web app when either is missing or stale (scripts/build.mjs),
// obtains the built-in embedding model if it is configured and missing, then runs the compiled server
// (dist/server/main.js) in this same process: plain JavaScript on Node, no TypeScript loader.
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { ensureBuilt, SERVER_DIST } from './build.mjs';

await ensureBuilt();
// Stack traces name the TypeScript sources (the build writes source maps), in logs and error reports alike.
process.setSourceMapsEnabled(true);
const compiled = (name) => pathToFileURL(path.join(SERVER_DIST, `${name}.js`)).href;
// Never fatal: without the model retrieval stays lexical, and ensure-on-start says so in one line.
if (!['none', 'openai'].includes(process.env.EMBEDDING_PROVIDER ?? '')) {
  try {
    const { ensureModelOnStart } = await import(compiled('ensure-model'));
    await ensureModelOnStart();
  } catch (err) {
    console.warn(
      `Embedding model setup failed (${err instanceof Error ? err.message : err}), so the lexical engine will be used. To fix: run \`npm run models\`, or set MODELS_SOURCE_DIR to a folder holding model.onnx and tokenizer.json.`,
    );
  }
}
await import(compiled('main'));
