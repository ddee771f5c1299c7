import multipart from '@fastify/multipart';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { isStorableText } from '../../shared/rules/storableText';
import { ClientError, RefusedUpload } from '../errors';
import { recordRefusedUpload } from '../audit/securityEvents';
import { UNSTORABLE_MESSAGE } from '../plugins/inputGuard';
import { trackSpooled } from './documentStore';
import { MULTIPART_BODY_LIMIT, UPLOAD_LIMITS } from './uploadLimits';
import type { StoredFile } from '../db/documents';
import { deleteStored, saveUpload, type UploadKind } from './uploads';

/**
 * The multipart reader, for the routes of the calling module only (the four that read form data:
 * auth, user, registration, applications). @fastify/multipart puts a promise hook on the start and
 * the end of every request in its scope, which clean the files `saveRequestFiles` saved; the portal
 * streams the parts itself (readMultipartForm below) and cleans its spool on its own hooks
 * (registerSpoolCleanup), so the statement, the listing and the pages pay nothing for it. Form
 * data sent to any other route is refused 415 (no parser for it there).
 */
export async function registerMultipartReader(app: FastifyInstance): Promise<void> {
  await app.register(multipart, { limits: UPLOAD_LIMITS, throwFileSizeLimit: true });
}

/** What a file field of a form may hold. */
export interface FileRule {
  accept: UploadKind;
  /** How the field is named in error messages (defaults to the field name). */
  label?: string;
}

/** A file field's rule decided from the text fields before it; undefined refuses the field. */
export type FileRuleOf = (
  name: string,
  fieldsBefore: ReadonlyMap<string, readonly string[]>,
) => FileRule | undefined;

function ruleFor(
  files: Record<string, FileRule> | FileRuleOf,
  name: string,
  fields: ReadonlyMap<string, readonly string[]>,
): FileRule | undefined {
  if (typeof files === 'function') return files(name, fields);
  return Object.hasOwn(files, name) ? files[name] : undefined;
}

/** A parsed multipart form: text fields (repeatable) and checked, stored files. */
export interface MultipartForm {
  /** The first value of a text field, trimmed; undefined when absent. */
  field(name: string): string | undefined;
  /** Every value of a repeated text field (`role`, `role`, … or `role[]`). */
  all(name: string): string[];
  files: Map<string, StoredFile>;
}

const TOO_LARGE_MESSAGE = `This submission is too large. Each file may be at most ${UPLOAD_LIMITS.fileSize / 1024 / 1024} MB.`;

const LIMIT_MESSAGES: Record<string, [number, string]> = {
  FST_REQ_FILE_TOO_LARGE: [413, 'A file is too large.'],
  FST_FILES_LIMIT: [413, 'Too many files in one request.'],
  FST_FIELDS_LIMIT: [413, 'Too many fields in one request.'],
  FST_PARTS_LIMIT: [413, 'Too many parts in one request.'],
  FST_PROTO_VIOLATION: [400, 'A form field has a name that is not allowed.'],
  FST_MP_PREMATURE_CLOSE: [400, 'The upload ended early. Please try again.'],
  FST_INVALID_MULTIPART_CONTENT_TYPE: [415, 'This call expects form data (multipart/form-data).'],
};

/**
 * Reads a multipart request part by part: text fields into memory (bounded by the app's
 * multipart limits), each allowed file field streamed to storage and checked by content. A file
 * field not in `files`, a second file for the same field, or any failure deletes every file
 * stored so far and throws a 4xx ClientError; the rest of the body is then read and dropped
 * (`unreadBodyPlugin`), so the browser gets the answer. The files wait in the spool until the caller
 * stores them with its rows (`putDocument`, inside its transaction); the spool copies are deleted
 * when the request ends (`registerSpoolCleanup`), or earlier with `discardForm`.
 */
export async function readMultipartForm(
  request: FastifyRequest,
  options: {
    dataDir: string;
    /**
     * The file fields allowed and their rules; or a function deciding a file field's rule from
     * the text fields sent before it (a `pointer` naming the question), which may throw a
     * ClientError to refuse it.
     */
    files: Record<string, FileRule> | FileRuleOf;
  },
): Promise<MultipartForm> {
  if (!request.isMultipart()) {
    throw new ClientError(415, 'This call expects form data (multipart/form-data).');
  }
  if (Number(request.headers['content-length']) > MULTIPART_BODY_LIMIT) {
    // More than the limits let through: refused unread (the connection closes after the answer).
    throw new ClientError(413, TOO_LARGE_MESSAGE);
  }
  const fields = new Map<string, string[]>();
  const files = new Map<string, StoredFile>();
  try {
    const parts = request.parts()[Symbol.asyncIterator]();
    for (;;) {
      const next = await parts.next().catch((error: unknown) => {
        throw malformed(error);
      });
      if (next.done) break;
      const part = next.value;
      // busboy hands a part without a `name` on as an undefined field name.
      const rawName = part.fieldname as string | undefined;
      if (typeof rawName !== 'string' || rawName === '') {
        if (part.type === 'file') part.file.resume();
        throw new ClientError(400, 'A form part has no name.');
      }
      if (!isStorableText(rawName)) {
        if (part.type === 'file') part.file.resume();
        throw new ClientError(400, UNSTORABLE_MESSAGE);
      }
      const name = rawName.replace(/\[\]$/, '');
      if (part.type === 'file') {
        let rule: FileRule | undefined;
        try {
          rule = ruleFor(options.files, name, fields);
        } catch (error) {
          part.file.resume();
          throw error;
        }
        if (!rule || files.has(name)) {
          part.file.resume();
          throw new ClientError(
            400,
            rule ? `Only one file is allowed for ${name}.` : `Unexpected file field ${name}.`,
          );
        }
        const stored = await saveUpload(part, {
          dataDir: options.dataDir,
          accept: rule.accept,
          label: rule.label ?? name,
        });
        trackSpooled(request, stored);
        files.set(name, stored);
      } else {
        if (part.valueTruncated || part.fieldnameTruncated) {
          throw new ClientError(413, `The field ${name} is too long.`);
        }
        const value = String(part.value);
        if (!isStorableText(value)) {
          throw new ClientError(400, UNSTORABLE_MESSAGE, { [name]: 'Character not allowed' });
        }
        const values = fields.get(name) ?? [];
        values.push(value);
        fields.set(name, values);
      }
    }
  } catch (error) {
    await discardFiles(options.dataDir, files.values());
    // A file refused for what it holds is a security event, whatever the route makes of it.
    if (error instanceof RefusedUpload) await recordRefusedUpload(request, error);
    throw translateLimitError(error);
  }
  return {
    field: (name) => fields.get(name)?.[0]?.trim(),
    all: (name) => (fields.get(name) ?? []).map((value) => value.trim()),
    files,
  };
}

/**
 * Deletes a form's spool copies early. Safe at any point, even after a commit: the stored
 * documents are the database's copies, never these.
 */
export async function discardForm(dataDir: string, form: MultipartForm): Promise<void> {
  await discardFiles(dataDir, form.files.values());
}

async function discardFiles(dataDir: string, files: Iterable<StoredFile>): Promise<void> {
  await Promise.all([...files].map((file) => deleteStored(dataDir, file.storageName)));
}

function translateLimitError(error: unknown): unknown {
  if (error instanceof ClientError) return error;
  const code = (error as { code?: string }).code;
  const known = code ? LIMIT_MESSAGES[code] : undefined;
  return known ? new ClientError(known[0], known[1]) : error;
}

/**
 * A parse failure of the request itself (busboy's "Unexpected end of form", a bad header, the
 * plugin's limit errors) is the client's fault: a 4xx, never a 500.
 */
function malformed(error: unknown): unknown {
  const translated = translateLimitError(error);
  if (translated instanceof ClientError) return translated;
  return new ClientError(400, 'The form data could not be read. Please try again.');
}
