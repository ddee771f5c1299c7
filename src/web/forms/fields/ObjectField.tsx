import { useCallback, useMemo, useState, useSyncExternalStore } from 'react';
import { getDefaultRegistry } from '@rjsf/core';
import {
  ADDITIONAL_PROPERTY_FLAG,
  getUiOptions,
  isFormDataAvailable,
  shouldRenderOptionalField,
  TranslatableString,
  type FieldProps,
} from '@rjsf/utils';
import { isPlainObject, type JsonSchema } from '../../../shared/forms/model/schemaTypes';
import { keyRefusal, newKey } from '../../../shared/forms/walk/addedKeys';
import { engineOf } from '../engine';
import { AddedKeysContext, UNNAMED_KEY } from '../templates/AddedKeyRow';
import { fromPointer, toPointer } from '../../../shared/forms/model/pointer';

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
  const data = present ? { [first]: undefined } : formData;
  if (!opensToKeys(schema)) return <StockObjectField {...props} formData={data} />;
  return <ObjectWithAddedKeys {...props} formData={data} />;
}

/** An object the person may add answers to, under keys of their choosing. */
const opensToKeys = (schema: FieldProps['schema']) =>
  isPlainObject(schema.patternProperties) ||
  isPlainObject(schema.additionalProperties) ||
  isPlainObject(schema.propertyNames);

/**
 * The rows of an object's added answers check their keys against its schema (AddedKeyRow). An
 * answer added with rjsf's add button is named 'newKey', which a pattern or `propertyNames` may
 * refuse, and rjsf's live omit would drop it at once (the row gone, or on screen and out of the
 * answers): it gets a key the form accepts instead (newKey in shared/forms/walk/addedKeys.ts).
 */
function ObjectWithAddedKeys(props: FieldProps) {
  const { schema, onChange, fieldPathId, registry } = props;
  // Rows added and not answered yet: rjsf's live omit drops an empty answer (and an object of
  // nothing but empty answers), so they are kept drawn from the engine's marks (AddedObjects).
  const store = engineOf(registry)?.added;
  const pointer = toPointer(fieldPathId.path);
  const marks = useSyncExternalStore(store?.subscribe ?? noSubscription, () =>
    store ? store.get() : NO_MARKS,
  );
  const formData = useMemo(() => {
    const own = isPlainObject(props.formData) ? props.formData : {};
    const pending = [...marks]
      .filter((mark) => mark.startsWith(`${pointer}/`))
      .map((mark) => fromPointer(mark.slice(pointer.length)))
      .filter((keys) => keys.length === 1 && !(keys[0]! in own))
      .map((keys) => keys[0]!);
    if (pending.length === 0) return props.formData;
    return { ...own, ...Object.fromEntries(pending.map((key) => [key, undefined])) };
  }, [props.formData, marks, pointer]);
  const resolved = useMemo(
    () => declaredOnly(registry.schemaUtils.retrieveSchema(schema, formData)),
    [registry, schema, formData],
  );
  const keys = useMemo(() => (isPlainObject(formData) ? Object.keys(formData) : []), [formData]);
  // rjsf's object field keeps the order of added keys in its own state, from the one it named:
  // drawn afresh when the engine names the key.
  const [generation, setGeneration] = useState(0);
  // The unnamed row named: a new answer under its key (rjsf never held the unnamed one).
  const nameRow = useCallback(
    (key: string) => {
      store?.remove(toPointer([...fieldPathId.path, UNNAMED_KEY]));
      store?.add(toPointer([...fieldPathId.path, key]));
      const own = isPlainObject(props.formData) ? props.formData : {};
      setGeneration((n) => n + 1);
      onChange({ ...own, [key]: null }, fieldPathId.path);
    },
    [store, fieldPathId, props.formData, onChange],
  );
  const scope = useMemo(
    () => ({ schema: resolved, keys, depth: fieldPathId.path.length, pointer, nameRow }),
    [resolved, keys, fieldPathId, pointer, nameRow],
  );
  const handleChange = useCallback<FieldProps['onChange']>(
    (value, path, errorSchema, id) => {
      const own = path.length === fieldPathId.path.length;
      const added =
        own && isPlainObject(value) ? Object.keys(value).filter((k) => !keys.includes(k)) : [];
      const named = added.length === 1 ? added[0]! : undefined;
      // A new answer (not a rename): rjsf's placeholder text ('New Value') is no answer; it
      // starts unanswered as a pattern's does (null: an empty text would be dropped with its row).
      const adding = named !== undefined && Object.keys(value as object).length === keys.length + 1;
      if (
        named === undefined ||
        (!adding && keyRefusal(resolved as JsonSchema, named) === undefined)
      ) {
        onChange(value, path, errorSchema, id);
        return;
      }
      const refused = keyRefusal(resolved as JsonSchema, named) !== undefined;
      const key = refused ? newKey(resolved as JsonSchema, keys) : named;
      if (key === undefined) {
        // No key the form accepts can be made (a pattern with no literal start): the row is drawn
        // with an empty key for the person to name (AddedKeyRow), and nothing is kept before.
        if (adding) {
          store?.add(toPointer([...fieldPathId.path, UNNAMED_KEY]));
          setGeneration((n) => n + 1);
        }
        return;
      }
      const placeholder = registry.translateString(TranslatableString.NewStringDefault);
      const entries = Object.entries(value as Record<string, unknown>).map(([k, v]) =>
        k === named ? [key, adding && v === placeholder ? null : v] : [k, v],
      );
      if (refused) setGeneration((n) => n + 1);
      if (adding) store?.add(toPointer([...fieldPathId.path, key]));
      onChange(Object.fromEntries(entries), path, errorSchema, id);
    },
    [onChange, fieldPathId, keys, resolved, registry, store],
  );
  return (
    <AddedKeysContext.Provider value={scope}>
      <StockObjectField key={generation} {...props} formData={formData} onChange={handleChange} />
    </AddedKeysContext.Provider>
  );
}

const noSubscription = () => () => {};
const NO_MARKS: ReadonlySet<string> = new Set();

/** The object's schema without the properties rjsf stubs for the keys its answers hold. */
function declaredOnly(schema: FieldProps['schema']): FieldProps['schema'] {
  if (!schema.properties) return schema;
  const declared = Object.entries(schema.properties).filter(
    ([, property]) => !(isPlainObject(property) && ADDITIONAL_PROPERTY_FLAG in property),
  );
  return { ...schema, properties: Object.fromEntries(declared) };
}

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
