import type { CSSProperties } from 'react';
import { Templates } from '@rjsf/mui';
import {
  canExpand,
  descriptionId,
  getTemplate,
  getUiOptions,
  titleId,
  type ObjectFieldTemplateProps,
} from '@rjsf/utils';
import { objectFields } from './stepLayout';

const MuiObjectFieldTemplate = Templates.ObjectFieldTemplate!;

/**
 * An object's title, description and fields, the fields stacked in one flex column with
 * rjsf-mui's spacing (16 px apart plus 10 px below each) but without its Grid item around each
 * field: see FieldTemplate. An object the user may add keys to keeps rjsf-mui's template.
 */
export function ObjectFieldTemplate(props: ObjectFieldTemplateProps) {
  const {
    title,
    description,
    required,
    disabled,
    readonly,
    uiSchema,
    fieldPathId,
    schema,
    formData,
    optionalDataControl,
    registry,
  } = props;
  if (canExpand(schema, uiSchema, formData)) return <MuiObjectFieldTemplate {...props} />;
  const uiOptions = getUiOptions(uiSchema);
  // Looked up in the registry (components defined once, at module level), not created here.
  const TitleFieldTemplate = getTemplate('TitleFieldTemplate', registry, uiOptions);
  const DescriptionFieldTemplate = getTemplate('DescriptionFieldTemplate', registry, uiOptions);
  // Beside the title when there is one (a title-less object's control heads its fields).
  const optionalControlInTitle = !readonly && !disabled && !!title;
  return (
    <>
      {title && (
        // eslint-disable-next-line react-hooks/static-components -- a registry lookup, see above
        <TitleFieldTemplate
          id={titleId(fieldPathId)}
          title={title}
          required={required}
          schema={schema}
          uiSchema={uiSchema}
          registry={registry}
          optionalDataControl={optionalControlInTitle ? optionalDataControl : undefined}
        />
      )}
      {description && (
        // eslint-disable-next-line react-hooks/static-components -- a registry lookup, see above
        <DescriptionFieldTemplate
          id={descriptionId(fieldPathId)}
          description={description}
          schema={schema}
          uiSchema={uiSchema}
          registry={registry}
        />
      )}
      <div style={fieldPathId.path.length === 0 ? rootFields(uiOptions.maxWidth) : FIELDS}>
        {!optionalControlInTitle ? optionalDataControl : undefined}
        {objectFields(props)}
      </div>
    </>
  );
}

/** rjsf-mui's Grid container (spacing 2, margin-top 1.25) and items (margin-bottom 1.25). */
const FIELDS: CSSProperties = {
  display: 'flex',
  flexDirection: 'column',
  rowGap: 26,
  marginTop: 10,
  paddingBottom: 10,
};

/**
 * The form's questions, at most `ui:options.maxWidth` pixels wide when the root uiSchema gives it
 * (about 800 px, spec §9 and business §9): lines of inputs stay readable on a wide screen.
 */
function rootFields(maxWidth: unknown): CSSProperties {
  return typeof maxWidth === 'number' ? { ...FIELDS, maxWidth } : FIELDS;
}
