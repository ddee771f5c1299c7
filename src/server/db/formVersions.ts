/**
 * The wording of each form version answers were saved or submitted under (migration 101), by
 * schema hash: applications are carried over from it, the console draws a version's prompts.
 */
import type { CompiledForm } from '../../shared/forms/model/compiledForm';
import type { JsonSchema, UiSchema } from '../../shared/forms/model/schemaTypes';
import type { Queryable } from './transaction';

/** Keeps the form's current version (once per hash). */
export async function recordFormVersion(db: Queryable, form: CompiledForm): Promise<void> {
  await db.query(
    `insert into form_versions (schema_hash, form_id, schema, ui_schema)
     values ($1, $2, $3, $4)
     on conflict (schema_hash) do nothing`,
    [form.hash, form.id, JSON.stringify(form.schema), JSON.stringify(form.uiSchema)],
  );
}

/** A version's form id, schema and uiSchema, or null when this database never saw it. */
export async function findFormVersion(
  db: Queryable,
  schemaHash: string,
): Promise<{ formId: string; schema: JsonSchema; uiSchema: UiSchema } | null> {
  const result = await db.query<{ form_id: string; schema: JsonSchema; ui_schema: UiSchema }>(
    'select form_id, schema, ui_schema from form_versions where schema_hash = $1',
    [schemaHash],
  );
  const row = result.rows[0];
  return row ? { formId: row.form_id, schema: row.schema, uiSchema: row.ui_schema } : null;
}
