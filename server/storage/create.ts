import path from 'node:path';
import type { Config } from '../config';
import { LocalStorage } from './local';
import { S3Storage } from './s3';
import type { ObjectStorage } from './types';

/** The storage driver the configuration names (ARCHITECTURE §2): local directory by default, or S3-compatible. */
export function createStorage(config: Config): ObjectStorage {
  if (config.storage.driver === 's3') return new S3Storage(config.storage.s3);
  if (!config.sessionSecret) throw new Error('SESSION_SECRET is needed to sign upload URLs');
  return new LocalStorage(
    config.storage.localDir ?? path.join(config.dataDir, 'objects'),
    config.publicUrl,
    config.sessionSecret,
  );
}
