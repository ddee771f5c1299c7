/**
 * The field registry of the form engine: what SchemaForm passes as rjsf's `fields`. rjsf's own
 * field classes are replaced where the engine draws them differently (ObjectField, ArrayField),
 * and every name a uiSchema may give as `ui:field` (src/shared/forms/model/fieldNames.ts) maps to its
 * component. Typed as a full Record so a name added to FIELD_NAMES without a component fails to
 * compile.
 */
import type { Field, RegistryFieldsType } from '@rjsf/utils';
import type { FieldName } from '../../../shared/forms/model/fieldNames';
import { ChangeModeSchemaField } from '../changeMode';
import { DialogListField } from './DialogListField';
import { InlineArrayField } from './InlineArrayField';
import { ObjectField } from './ObjectField';
import { OptionalDataControlsField } from './OptionalDataControlsField';

const FIELDS: Record<FieldName, Field> = {
  dialogList: DialogListField,
};

export const REGISTRY_FIELDS: RegistryFieldsType = {
  // Change mode's read-only rule, per field (rjsf's own SchemaField otherwise).
  SchemaField: ChangeModeSchemaField,
  ObjectField,
  ArrayField: InlineArrayField,
  // An optional object's add and remove buttons, worded by its prompt.
  OptionalDataControlsField,
  ...FIELDS,
};
