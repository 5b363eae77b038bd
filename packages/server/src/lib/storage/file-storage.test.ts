import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { text } from 'node:stream/consumers';
import { describe, expect, it } from 'vitest';
import { dataDirStorage, FileMissing, FileTooLarge } from './file-storage.js';

describe('dataDirStorage', () => {
  const storage = () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'basalt-storage-'));
    return { dir, files: dataDirStorage(dir) };
  };

  it('puts, gets as a stream and deletes', async () => {
    const { files } = storage();
    expect(await files.put('sql/p1/a.sql', Readable.from([Buffer.from('select 1;')]))).toEqual({ size: 9 });
    expect(await text(await files.get('sql/p1/a.sql'))).toBe('select 1;');
    await files.delete('sql/p1/a.sql');
    await files.delete('sql/p1/a.sql');
    await expect(files.get('sql/p1/a.sql')).rejects.toBeInstanceOf(FileMissing);
  });

  it('stores nothing past maxBytes', async () => {
    const { dir, files } = storage();
    await expect(
      files.put('big/x.sql', Readable.from([Buffer.alloc(10), Buffer.alloc(10)]), { maxBytes: 15 }),
    ).rejects.toBeInstanceOf(FileTooLarge);
    expect(fs.readdirSync(path.join(dir, 'files', 'big'))).toEqual([]);
  });

  it('refuses keys that leave its folder', async () => {
    const { files } = storage();
    for (const key of ['../x', 'a/../../x', '/etc/passwd', 'a//b', '']) {
      await expect(files.put(key, Readable.from([]))).rejects.toThrow(/Invalid storage key/);
    }
  });
});
