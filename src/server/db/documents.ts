import { putDocument } from '../storage/documentStore';
import type { StoredFile } from '../storage/uploads';
import type { Queryable } from './transaction';

/** Records a stored upload (photo ID and the like) as belonging to a user. */
export async function insertUserDocument(
  db: Queryable,
  userId: string,
  kind: string,
  file: StoredFile,
): Promise<string> {
  await putDocument(db, file);
  const result = await db.query<{ id: string }>(
    `insert into user_documents (user_id, kind, storage_name, original_name, content_type, size)
     values ($1, $2, $3, $4, $5, $6) returning id`,
    [userId, kind, file.storageName, file.originalName, file.contentType, file.size],
  );
  return result.rows[0]!.id;
}
