/**
 * bench:fit — fits the engine's decision models (server/engine/data/models.json) on every company of bench:quality
 * and the six training companies of training/ (their labelled questions; TRAINING=0 leaves them out):
 * the dense models (with the built-in embedding model) and the lexical ones (what runs without a model). bench:quality
 * measures the same fitting procedure on folds that hold out a company and a family; the models shipped are fitted
 * on all of it.
 *
 *   npm run bench:fit          # fit and write server/engine/data/models.json
 *   DRY=1 npm run bench:fit    # fit and print, write nothing
 *
 * The lexical models are refitted only with LEXICAL=1: the engine without a model keeps the behaviour its tests
 * were written against unless someone chooses to change it.
 */
import fs from 'node:fs';
import path from 'node:path';
import pino from 'pino';
import { loadConfig } from '../../server/config';
import { qualityEmbedder } from './embedder';
import { collect, engineAnswer, figures, fitModels, judge } from './evaluate';
import { loadCompanies } from './setup';
import { loadTrainingCompanies } from './training-companies';
import { LEXICAL_MODELS } from '../../server/engine/ranking/models';

async function main() {
  const config = loadConfig({ ...process.env, EMBEDDING_PROVIDER: 'local' });
  const embedder = await qualityEmbedder(config.embedding, pino({ level: 'warn' }));
  const training = process.env.TRAINING === '0' ? [] : loadTrainingCompanies();
  const items = await collect([...loadCompanies(), ...training], embedder, (l) => console.log(l));
  await embedder.close();
  const dense = fitModels(items, 'dense');
  const lexical = process.env.LEXICAL === '1' ? fitModels(items, 'lexical') : LEXICAL_MODELS;
  for (const [name, models] of [
    ['dense', dense],
    ['lexical', lexical],
  ] as const) {
    const f = figures(items.map((it) => judge(it, engineAnswer(it, name, models))));
    console.log(
      `${name}: thresholds ${JSON.stringify(models.thresholds)}; on its own training data (not a measure of generalization): top-1 ${f.top1.toFixed(1)}%, recall ${f.recall.toFixed(1)}%, abstain ${f.abstain.toFixed(1)}%, wrong ${f.wrong.toFixed(1)}%`,
    );
    console.log(JSON.stringify(models));
  }
  if (process.env.DRY === '1') return;
  const file = path.join(path.dirname(new URL(import.meta.url).pathname), '../../server/engine/data/models.json');
  const out = {
    about: `Written by npm run bench:fit (bench/quality/fit.ts) from the bench:quality companies${training.length ? ' and the training companies' : ''}; do not edit by hand.`,
    lexical,
    dense,
  };
  fs.writeFileSync(file, `${JSON.stringify(out, null, 2)}\n`);
  console.log(`wrote ${path.relative(process.cwd(), file)}`);
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
