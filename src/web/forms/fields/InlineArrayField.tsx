import type { CSSProperties } from 'react';
import { getDefaultRegistry } from '@rjsf/core';
import {
  getTemplate,
  getUiOptions,
  type ArrayFieldItemTemplateProps,
  type FieldProps,
  type Registry,
} from '@rjsf/utils';

const StockArrayField = getDefaultRegistry().fields.ArrayField!;

/**
 * One item of an array drawn inline (the DBA names): the item's input and its toolbar (remove,
 * move) side by side, the toolbar level with the input. rjsf-mui's template wraps each item in a
 * raised Paper and centres the toolbar on the whole item, so beside an input with an error or a
 * helper text below it the buttons float off the input's line.
 */
export function InlineArrayFieldItemTemplate(props: ArrayFieldItemTemplateProps) {
  const { children, buttonsProps, hasToolbar, uiSchema, registry } = props;
  const ButtonsTemplate = getTemplate(
    'ArrayFieldItemButtonsTemplate',
    registry,
    getUiOptions(uiSchema),
  );
  return (
    <div style={ITEM}>
      <div style={CONTENT}>{children}</div>
      {hasToolbar ? (
        <div style={TOOLBAR}>
          {/* eslint-disable-next-line react-hooks/static-components -- a registry lookup */}
          <ButtonsTemplate {...buttonsProps} />
        </div>
      ) : null}
    </div>
  );
}

const ITEM: CSSProperties = { display: 'flex', alignItems: 'flex-start', gap: 8, marginBottom: 16 };
const CONTENT: CSSProperties = { flex: 1, minWidth: 0 };
/** As tall as an outlined MUI input (56 px), so the buttons sit on the input's centre line. */
const TOOLBAR: CSSProperties = { display: 'flex', alignItems: 'center', height: 56, gap: 4 };

const registries = new WeakMap<Registry, Registry>();

/** The registry with the inline item template, one object per registry (stable for rjsf). */
function inlineRegistry(registry: Registry): Registry {
  let inline = registries.get(registry);
  if (!inline) {
    inline = {
      ...registry,
      templates: { ...registry.templates, ArrayFieldItemTemplate: InlineArrayFieldItemTemplate },
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
