/**
 * The file types the forms take, read from the schema (schemas/common/file.schema.json), so the
 * browser's check, the server's and every upload path follow one rule that compliance edits in
 * one place.
 */
import fileSchema from '../../../../schemas/common/file.schema.json';

interface FileDefinition {
  then?: { properties?: { type?: { enum?: string[] } } };
}

/** The MIME types an ID image may have (`$defs.imageFile`): JPEG, PNG, WebP, HEIC today. */
export function imageFileTypes(): string[] {
  const schema = fileSchema as { $defs?: Record<string, FileDefinition> };
  const types = schema.$defs?.imageFile?.then?.properties?.type?.enum;
  if (!types?.length) throw new Error('file.schema.json: $defs.imageFile lists no image types');
  return types;
}
