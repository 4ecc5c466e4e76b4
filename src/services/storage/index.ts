import type { Config } from '../../platform/config';
import type { FileStorage } from './file-storage';
import { LocalFileStorage } from './local-file-storage';

/** STORAGE=local (default: a directory, for one instance) or s3 (shared by every instance). */
export function createFileStorage(config: Config): FileStorage {
  if (config.storage.kind !== 's3') return new LocalFileStorage(config.storageDir);
  // Loaded only for s3: the AWS SDK is several MB of resident heap that a local-disk gateway never uses.
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { S3FileStorage } = require('./s3-file-storage') as typeof import('./s3-file-storage');
  return new S3FileStorage(config.storage.s3);
}
