// `npm start`: builds the web app if its sources changed, obtains the built-in embedding model if it is configured
// and missing, then runs the server in this same process through tsx.
import { register } from 'tsx/esm/api';
import { ensureWebBuilt } from './ensure-web-built.mjs';

ensureWebBuilt();
register();
// Never fatal: without the model retrieval stays lexical, and ensure-on-start says so in one line.
if (!['none', 'openai'].includes(process.env.EMBEDDING_PROVIDER ?? '')) {
  try {
    const { ensureModelOnStart } = await import('../server/embedding/ensure-on-start.ts');
    await ensureModelOnStart();
  } catch (err) {
    console.warn(
      `Embedding model setup failed (${err instanceof Error ? err.message : err}), so the lexical engine will be used. To fix: run \`npm run models\`, or set MODELS_SOURCE_DIR to a folder holding model.onnx and tokenizer.json.`,
    );
  }
}
await import('../server/main.ts');
