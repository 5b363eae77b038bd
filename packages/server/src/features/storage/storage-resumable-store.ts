import { Readable } from 'node:stream';
import { DataStore, ERRORS, Upload } from '@tus/utils';
import type { Db } from '../../db/database.js';
import type { BlobStore } from './storage-blobs.js';

// Where unfinished TUS uploads live, so that a PATCH reaching another node than the POST continues the same
// upload: the upload itself (size, offset reached, metadata) is a row of `storage_resumable_uploads`, and each
// PATCH's bytes are one chunk in the blob store (disk or S3), `<account>/r-<id>-<n>`. Nothing is kept in a node's
// memory. A chunk is stored first and counted after, by an update that names the offset it started from: of two
// PATCHes at one offset (two nodes), one counts and the other's chunk is removed (409). A PATCH the client cuts
// keeps what arrived (@tus/server ends the stream cleanly), so the upload resumes from there. The finished
// upload is read as its chunks in order, and stored as any upload is (storage-resumable.ts).

/** RESUMABLE_EXPIRY_MS is how long an unfinished upload may wait for its next byte. */
export const RESUMABLE_EXPIRY_MS = 24 * 3600 * 1000;

type UploadRow = {
  id: string;
  account_id: string;
  size: number | string;
  upload_offset: number | string;
  chunks: number;
  metadata: string;
  created_at: string;
};

const chunkKey = (row: Pick<UploadRow, 'account_id' | 'id'>, index: number) => `${row.account_id}/r-${row.id}-${index}`;

/** BlobResumableStore keeps TUS uploads in the database and the blob store, for @tus/server. */
export class BlobResumableStore extends DataStore {
  constructor(
    private readonly db: Db,
    private readonly blobs: BlobStore,
  ) {
    super();
    this.extensions = ['creation', 'creation-with-upload', 'termination', 'expiration'];
  }

  private async row(id: string): Promise<UploadRow> {
    const row = await this.db.kysely
      .selectFrom('storage_resumable_uploads')
      .select(['id', 'account_id', 'size', 'upload_offset', 'chunks', 'metadata', 'created_at'])
      .where('id', '=', id)
      .executeTakeFirst();
    if (!row) throw ERRORS.FILE_NOT_FOUND;
    return row;
  }

  override async create(upload: Upload): Promise<Upload> {
    if (upload.size === undefined) throw ERRORS.UNSUPPORTED_CREATION_DEFER_LENGTH_EXTENSION;
    const accountId = (JSON.parse(upload.metadata?.basaltActor ?? '{}') as { accountId?: string }).accountId;
    if (!accountId) throw ERRORS.UNKNOWN_ERROR;
    const now = new Date();
    upload.creation_date = now.toISOString();
    await this.db.kysely
      .insertInto('storage_resumable_uploads')
      .values({
        id: upload.id,
        account_id: accountId,
        size: upload.size,
        upload_offset: 0,
        chunks: 0,
        metadata: JSON.stringify(upload.metadata ?? {}),
        expires_at: new Date(now.getTime() + RESUMABLE_EXPIRY_MS).toISOString(),
        created_at: upload.creation_date,
      })
      .execute();
    return upload;
  }

  override async write(stream: Readable, id: string, offset: number): Promise<number> {
    const row = await this.row(id);
    if (Number(row.upload_offset) !== offset) throw ERRORS.INVALID_OFFSET;
    const key = chunkKey(row, row.chunks);
    const { size } = await this.blobs.put(key, stream, Number(row.size) - offset);
    if (size === 0) {
      await this.blobs.delete([key]);
      return offset;
    }
    const counted = await this.db.kysely
      .updateTable('storage_resumable_uploads')
      .set({ upload_offset: offset + size, chunks: row.chunks + 1 })
      .where('id', '=', id)
      .where('upload_offset', '=', offset)
      .where('chunks', '=', row.chunks)
      .executeTakeFirst();
    if (Number(counted.numUpdatedRows) !== 1) {
      await this.blobs.delete([key]);
      throw ERRORS.INVALID_OFFSET;
    }
    return offset + size;
  }

  override async getUpload(id: string): Promise<Upload> {
    const row = await this.row(id);
    return new Upload({
      id,
      size: Number(row.size),
      offset: Number(row.upload_offset),
      metadata: JSON.parse(row.metadata) as Record<string, string>,
      creation_date: row.created_at,
    });
  }

  /** read streams a finished upload's bytes: its chunks in order. */
  async read(id: string): Promise<Readable> {
    const row = await this.row(id);
    const blobs = this.blobs;
    return Readable.from(
      (async function* () {
        for (let index = 0; index < row.chunks; index++) yield* await blobs.get(chunkKey(row, index));
      })(),
    );
  }

  override async remove(id: string): Promise<void> {
    const row = await this.row(id);
    await this.blobs.delete(Array.from({ length: row.chunks }, (_, index) => chunkKey(row, index)));
    await this.db.kysely.deleteFrom('storage_resumable_uploads').where('id', '=', id).execute();
  }

  override getExpiration(): number {
    return RESUMABLE_EXPIRY_MS;
  }
}
