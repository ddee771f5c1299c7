import { cloneElement, isValidElement, type CSSProperties, type ReactElement } from 'react';
import Button from '@mui/material/Button';
import FormLabel from '@mui/material/FormLabel';
import { getDefaultRegistry } from '@rjsf/core';
import {
  buttonId,
  getTemplate,
  getUiOptions,
  titleId,
  type ArrayFieldItemTemplateProps,
  type ArrayFieldTemplateProps,
  type FieldProps,
  type Registry,
  type UiSchema,
} from '@rjsf/utils';
import { visuallyHidden } from '../../app/theme';
import { toPointer } from '../../../shared/forms/model/pointer';
import { RuleValuesLine } from './RuleValuesLine';

const StockArrayField = getDefaultRegistry().fields.ArrayField!;

/**
 * One item of an array drawn inline (the DBA names): the item's input and its toolbar (remove,
 * move) side by side, the toolbar level with the input. rjsf-mui's template wraps each item in a
 * raised Paper and centres the toolbar on the whole item, so beside an input with an error or a
 * helper text below it the buttons float off the input's line.
 *
 * The list's `ui:options` name each item and its remove button for screen readers, `{n}` the
 * item's position: `itemLabel` ('DBA name {n}'; rjsf would say '<list prompt>-1') and
 * `removeLabel` ('Remove DBA name {n}'; rjsf's is a bare red '–').
 */
function InlineArrayFieldItemTemplate(props: ArrayFieldItemTemplateProps) {
  const { children, buttonsProps, hasToolbar, uiSchema, registry, index, parentUiSchema } = props;
  const ButtonsTemplate = getTemplate(
    'ArrayFieldItemButtonsTemplate',
    registry,
    getUiOptions(uiSchema),
  );
  const listOptions = getUiOptions(parentUiSchema);
  const itemLabel = numbered(listOptions.itemLabel, index);
  const removeLabel = numbered(listOptions.removeLabel, index);
  const { RemoveButton } = registry.templates.ButtonTemplates;
  const onlyRemove =
    removeLabel !== undefined &&
    buttonsProps.hasRemove &&
    !buttonsProps.hasMoveUp &&
    !buttonsProps.hasMoveDown &&
    !buttonsProps.hasCopy;
  return (
    <div style={ITEM}>
      <div style={CONTENT}>
        {itemLabel !== undefined && isValidElement(children)
          ? labelled(children, itemLabel)
          : children}
      </div>
      {hasToolbar ? (
        <div style={TOOLBAR}>
          {onlyRemove ? (
            <RemoveButton
              id={buttonId(buttonsProps.fieldPathId, 'remove')}
              className="rjsf-array-item-remove"
              disabled={buttonsProps.disabled || buttonsProps.readonly}
              onClick={buttonsProps.onRemoveItem}
              uiSchema={uiSchema}
              registry={registry}
              title={removeLabel}
              aria-label={removeLabel}
            />
          ) : (
            // eslint-disable-next-line react-hooks/static-components -- a registry lookup
            <ButtonsTemplate {...buttonsProps} />
          )}
        </div>
      ) : null}
    </div>
  );
}

type ItemElement = ReactElement<{ title?: string; uiSchema?: UiSchema }>;

/**
 * The item's field named `label`: a short answer takes it as its prompt (`title`), a group of
 * answers (an object, 'Principal 2') as its heading, which rjsf's object field reads from
 * `ui:title` before the schema's title (issue 37 §3).
 */
function labelled(children: ReactElement, label: string): ReactElement {
  const element = children as ItemElement;
  return cloneElement(element, {
    title: label,
    uiSchema: titledUi(element.props.uiSchema ?? {}, label),
  });
}

const titledUis = new WeakMap<UiSchema, Map<string, UiSchema>>();

/** `uiSchema` with `ui:title`, the same object for the same label (rjsf compares by identity). */
function titledUi(uiSchema: UiSchema, label: string): UiSchema {
  let byLabel = titledUis.get(uiSchema);
  if (!byLabel) titledUis.set(uiSchema, (byLabel = new Map()));
  let titled = byLabel.get(label);
  if (!titled) byLabel.set(label, (titled = { ...uiSchema, 'ui:title': label }));
  return titled;
}

/** An item's words from a list option ('DBA name {n}'), `{n}` counted from 1. */
function numbered(option: unknown, index: number): string | undefined {
  return typeof option === 'string' && option !== ''
    ? option.replaceAll('{n}', String(index + 1))
    : undefined;
}

const ITEM: CSSProperties = { display: 'flex', alignItems: 'flex-start', gap: 8, marginBottom: 16 };
const CONTENT: CSSProperties = { flex: 1, minWidth: 0 };
/** As tall as an outlined MUI input (56 px), so the buttons sit on the input's centre line. */
const TOOLBAR: CSSProperties = { display: 'flex', alignItems: 'center', height: 56, gap: 4 };

/**
 * An inline list as a question among the others: its prompt (unless `ui:options.label` is
 * false, when a section heading already says it), its items, and an add button worded by
 * `ui:options.addLabel` (rjsf-mui draws a raised card with a heading and a bare '+' icon).
 */
function InlineArrayFieldTemplate(props: ArrayFieldTemplateProps) {
  const { canAdd, disabled, fieldPathId, uiSchema, items, onAddClick, readonly, registry } = props;
  const { required, schema, title } = props;
  const uiOptions = getUiOptions(uiSchema);
  const DescriptionTemplate = getTemplate('ArrayFieldDescriptionTemplate', registry, uiOptions);
  const { AddButton } = registry.templates.ButtonTemplates;
  const prompt = uiOptions.title || title;
  const addLabel = typeof uiOptions.addLabel === 'string' ? uiOptions.addLabel : undefined;
  return (
    <div role="group" aria-labelledby={prompt ? titleId(fieldPathId) : undefined}>
      {prompt ? (
        <FormLabel
          id={titleId(fieldPathId)}
          required={required}
          sx={uiOptions.label === false ? visuallyHidden : { display: 'block', mb: 1 }}
        >
          {prompt}
        </FormLabel>
      ) : null}
      {/* eslint-disable-next-line react-hooks/static-components -- a registry lookup */}
      <DescriptionTemplate
        fieldPathId={fieldPathId}
        description={uiOptions.description || schema.description}
        schema={schema}
        uiSchema={uiSchema}
        registry={registry}
      />
      {items}
      <RuleValuesLine
        formContext={registry.formContext}
        pointer={toPointer(fieldPathId.path.map(String))}
        text={uiOptions.valuesText}
      />
      {canAdd &&
        (addLabel ? (
          <Button
            id={buttonId(fieldPathId, 'add')}
            className="rjsf-array-item-add"
            variant="outlined"
            onClick={onAddClick}
            disabled={disabled || readonly}
          >
            {addLabel}
          </Button>
        ) : (
          <AddButton
            id={buttonId(fieldPathId, 'add')}
            className="rjsf-array-item-add"
            onClick={onAddClick}
            disabled={disabled || readonly}
            uiSchema={uiSchema}
            registry={registry}
          />
        ))}
    </div>
  );
}

const registries = new WeakMap<Registry, Registry>();

/** The registry with the inline item template, one object per registry (stable for rjsf). */
function inlineRegistry(registry: Registry): Registry {
  let inline = registries.get(registry);
  if (!inline) {
    inline = {
      ...registry,
      templates: {
        ...registry.templates,
        ArrayFieldTemplate: InlineArrayFieldTemplate,
        ArrayFieldItemTemplate: InlineArrayFieldItemTemplate,
      },
    };
    registries.set(registry, inline);
  }
  return inline;
}

/**
 * rjsf's array field with the inline item template. Arrays of objects that need more room use
 * the `dialogList` field (`ui:field`) instead, so every array that reaches this one is a list of
 * short answers.
 */
export function InlineArrayField(props: FieldProps) {
  return <StockArrayField {...props} registry={inlineRegistry(props.registry)} />;
}
