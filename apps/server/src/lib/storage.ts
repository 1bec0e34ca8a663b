import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';

/** Where uploaded files live. Local directory by default; another backend implements the same three calls. */
export interface FileStorage {
  put(key: string, data: Buffer): Promise<void>;
  get(key: string): Promise<Buffer | null>;
  remove(key: string): Promise<void>;
}

/** Files under a directory (DATA_DIR/uploads). Keys are generated names, never user input. */
export function localStorage(dir: string): FileStorage {
  const file = (key: string) => path.join(dir, path.basename(key));
  return {
    async put(key, data) {
      await mkdir(dir, { recursive: true });
      await writeFile(file(key), data);
    },
    async get(key) {
      try {
        return await readFile(file(key));
      } catch {
        return null;
      }
    },
    async remove(key) {
      await rm(file(key), { force: true });
    },
  };
}
