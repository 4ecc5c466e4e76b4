import type { Config } from '../../config';
import type { FileStorage } from './file-storage';
import { LocalFileStorage } from './local-file-storage';
import { S3FileStorage } from './s3-file-storage';

/** STORAGE=local (default: a directory, for one instance) or s3 (shared by every instance). */
export function createFileStorage(config: Config): FileStorage {
  return config.storage.kind === 's3' ? new S3FileStorage(config.storage.s3) : new LocalFileStorage(config.storageDir);
}
