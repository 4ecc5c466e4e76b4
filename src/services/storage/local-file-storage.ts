import { randomUUID } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdir, open, readdir, rename, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { NotFoundError } from '../../domain/errors';
import type { FileStorage } from './file-storage';

const KEY = /^[A-Za-z0-9_-]+(\/[A-Za-z0-9_-]+)*$/;

/** FileStorage in a local directory: one file per key, written to a temporary name and renamed into place. */
export class LocalFileStorage implements FileStorage {
  constructor(private readonly root: string) {}

  async put(key: string, content: Buffer | Readable): Promise<void> {
    const target = this.path(key);
    await mkdir(path.dirname(target), { recursive: true });
    const partial = `${target}.${randomUUID()}.partial`;
    try {
      await pipeline(Buffer.isBuffer(content) ? Readable.from([content]) : content, createWriteStream(partial, { flags: 'wx' }));
      await rename(partial, target);
    } catch (err) {
      await rm(partial, { force: true });
      throw err;
    }
  }

  async get(key: string): Promise<Readable> {
    // Opened up front so a missing file is an error here, not later in the middle of a response.
    const handle = await open(this.path(key), 'r').catch((err: NodeJS.ErrnoException) => {
      throw err.code === 'ENOENT' ? new NotFoundError() : err;
    });
    return handle.createReadStream();
  }

  async delete(key: string): Promise<void> {
    await rm(this.path(key), { force: true });
  }

  async exists(key: string): Promise<boolean> {
    return stat(this.path(key)).then(
      (s) => s.isFile(),
      () => false,
    );
  }

  async list(prefix: string): Promise<string[]> {
    const root = this.path(prefix);
    const entries = await readdir(root, { recursive: true, withFileTypes: true }).catch((err: NodeJS.ErrnoException) => {
      if (err.code === 'ENOENT') return [];
      throw err;
    });
    return entries
      .filter((e) => e.isFile() && !e.name.endsWith('.partial'))
      .map((e) => [prefix, ...path.relative(root, path.join(e.parentPath, e.name)).split(path.sep)].join('/'))
      .sort();
  }

  /** Keys are plain segments joined by "/": no "..", no absolute paths, so nothing escapes the root. */
  private path(key: string): string {
    if (!KEY.test(key)) throw new Error(`invalid storage key "${key}"`);
    return path.join(this.root, ...key.split('/'));
  }
}
