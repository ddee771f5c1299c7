import { useCallback, useSyncExternalStore } from 'react';
import { getDefaultRegistry } from '@rjsf/core';
import {
  getUiOptions,
  isFormDataAvailable,
  shouldRenderOptionalField,
  type FieldProps,
} from '@rjsf/utils';
import { engineOf, toPointer } from '../engine';

const StockObjectField = getDefaultRegistry().fields.ObjectField!;

/**
 * rjsf renders every object as its properties. A file reference ({name, type, size}, `x-file` in
 * the schema) with a `ui:widget` is rendered by that widget instead, as one answer. Any other
 * object is drawn as its properties even under a `ui:widget` (a text widget would show
 * '[object Object]' and replace the answers with its text); `forms check` refuses that pairing.
 */
export function ObjectField(props: FieldProps) {
  // A choice among objects (`enum` of objects, `oneOf` of object consts) is one answer chosen
  // from a list, as rjsf's string field draws any choice (by index, the value kept whole).
  const { StringField } = props.registry.fields;
  if (StringField && props.registry.schemaUtils.isSelect(props.schema)) {
    // Without `type: object`, which would hide the prompt (rjsf labels no object itself).
    const { type: _object, ...choice } = props.schema;
    return <StringField {...props} schema={choice} />;
  }
  const widget = props.uiSchema?.['ui:widget'];
  const fileReference = (props.schema as { 'x-file'?: unknown })['x-file'] !== undefined;
  if (fileReference && typeof widget === 'string' && widget in props.registry.widgets) {
    return <ObjectAsWidget {...props} />;
  }
  return <PossiblyOptionalObject {...props} />;
}

/**
 * An optional object the person added (its add button, see OptionalDataControlsField) stays drawn
 * before any answer in it: rjsf counts an empty object as absent (and its live omit drops `{}`
 * from the answers). Drawn with one declared key named (its value still `undefined`, so nothing
 * else changes), rjsf counts it present and draws its questions and its remove button.
 */
function PossiblyOptionalObject(props: FieldProps) {
  const { formData, schema, required = false, uiSchema, registry, fieldPathId } = props;
  const store = engineOf(registry)?.added;
  const pointer = toPointer(fieldPathId.path);
  const added = useSyncExternalStore(store?.subscribe ?? noSubscription, () =>
    store ? store.has(pointer) : false,
  );
  const first = Object.keys(schema.properties ?? {})[0];
  const present =
    added &&
    first !== undefined &&
    !isFormDataAvailable(formData) &&
    shouldRenderOptionalField(registry, schema, required, uiSchema);
  return <StockObjectField {...props} formData={present ? { [first]: undefined } : formData} />;
}

const noSubscription = () => () => {};

function ObjectAsWidget(props: FieldProps) {
  const {
    schema,
    uiSchema,
    formData,
    rawErrors,
    fieldPathId,
    name,
    title,
    required,
    disabled = false,
    readonly = false,
    hideError,
    onChange,
    onBlur,
    onFocus,
    registry,
  } = props;
  const { widget, title: uiTitle, placeholder = '', ...options } = getUiOptions(uiSchema);
  const Widget = registry.widgets[String(widget)]!;
  const handleChange = useCallback(
    (value: unknown) => onChange(value, fieldPathId.path, undefined, fieldPathId.$id),
    [onChange, fieldPathId],
  );
  return (
    <Widget
      id={fieldPathId.$id}
      htmlName={fieldPathId.name}
      name={name}
      schema={schema}
      uiSchema={uiSchema}
      value={formData}
      options={options}
      label={uiTitle ?? title ?? schema.title ?? name}
      placeholder={placeholder}
      required={required}
      disabled={disabled}
      readonly={readonly}
      hideError={hideError}
      rawErrors={rawErrors}
      onChange={handleChange}
      onBlur={onBlur}
      onFocus={onFocus}
      registry={registry}
    />
  );
}
