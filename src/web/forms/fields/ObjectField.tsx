import { useCallback } from 'react';
import { getDefaultRegistry } from '@rjsf/core';
import { getUiOptions, type FieldProps } from '@rjsf/utils';

const StockObjectField = getDefaultRegistry().fields.ObjectField!;

/**
 * rjsf renders every object as its properties. An object answer with a `ui:widget` (a file
 * reference {name, type, size}) is rendered by that widget instead, as one answer.
 */
export function ObjectField(props: FieldProps) {
  const widget = props.uiSchema?.['ui:widget'];
  if (typeof widget === 'string' && widget in props.registry.widgets) {
    return <ObjectAsWidget {...props} />;
  }
  return <StockObjectField {...props} />;
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
