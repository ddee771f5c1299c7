import { memo, useContext, type CSSProperties } from 'react';
import FormControl from '@mui/material/FormControl';
import Typography from '@mui/material/Typography';
import { getUiOptions, type FieldTemplateProps } from '@rjsf/utils';
import { FieldPointerContext } from '../engine';
import { changeModeOf, RequestedChangeNote } from '../changeMode';
import { sessionOf } from '../session';
import { AddedKeyRow, AddedKeysContext } from './AddedKeyRow';
import { toPointer } from '../../../shared/forms/model/pointer';

/**
 * One field: its widget (which draws its own label), description, errors under `errorId(id)` and
 * help, in a single MUI FormControl (which colours the error text), plus the field's JSON pointer
 * for the widgets inside it: upload widgets key their File by it and the region widget finds its
 * sibling country with it.
 *
 * rjsf-mui's template nests the same content three deep (its ObjectFieldTemplate's Grid item, a
 * classNames div, the FormControl); one element per field keeps the DOM every keystroke's frame
 * walks shallower. An answer added to an object (`additionalProperties`, `patternProperties`)
 * is drawn in a row with its key box and remove button (AddedKeyRow); a declared question keeps
 * its name, even where rjsf flags it as added.
 */
export const FieldTemplate = memo(function FieldTemplate(props: FieldTemplateProps) {
  const {
    children,
    classNames,
    style,
    displayLabel,
    hidden,
    required,
    rawErrors,
    errors,
    help,
    description,
    rawDescription,
    schema,
    uiSchema,
    fieldPathId,
    registry,
  } = props;
  const pointer = toPointer(fieldPathId.path);
  const scope = useContext(AddedKeysContext);
  // Change mode: a question staff asked to change is outlined with the reviewer's note.
  const request = hidden ? undefined : changeModeOf(registry)?.requestAt(pointer);
  const refused =
    !!rawErrors?.length &&
    schema['x-file'] !== undefined &&
    !!sessionOf(registry)?.isRefused(pointer);
  const control = (
    <FormControl
      fullWidth
      error={!!rawErrors && rawErrors.length > 0}
      required={required}
      className={classNames}
      style={{
        ...style,
        ...(fieldPathId.path.length === 1 ? FAR_OFF_SCREEN_SKIPPED : undefined),
        ...inputWidth(uiSchema),
      }}
    >
      {children}
      {displayLabel && getUiOptions(uiSchema).widget !== 'checkbox' && rawDescription ? (
        <Typography variant="caption" color="textSecondary">
          {description}
        </Typography>
      ) : null}
      {/* A file the server refused: its reason is said at once (it comes while the user may
          be on another question), once: the field's own message is the alert. */}
      {refused ? <div role="alert">{errors}</div> : errors}
      {help}
    </FormControl>
  );
  // An answer added to an object under a key of the person's choosing (not a declared question).
  const key = fieldPathId.path.at(-1);
  const added =
    scope !== undefined &&
    typeof key === 'string' &&
    fieldPathId.path.length === scope.depth + 1 &&
    !Object.hasOwn(scope.schema.properties ?? {}, key);
  const field = (
    <FieldPointerContext.Provider value={pointer}>
      {hidden ? (
        <div style={HIDDEN}>{children}</div>
      ) : added ? (
        <AddedKeyRow
          id={fieldPathId.$id}
          fieldKey={key}
          schema={schema}
          uiSchema={uiSchema}
          registry={registry}
          disabled={props.disabled}
          readonly={props.readonly}
          onKeyRename={props.onKeyRename}
          onRemoveProperty={props.onRemoveProperty}
        >
          {control}
        </AddedKeyRow>
      ) : (
        control
      )}
    </FieldPointerContext.Provider>
  );
  return request ? <RequestedChangeNote request={request}>{field}</RequestedChangeNote> : field;
});

const HIDDEN: CSSProperties = { display: 'none' };

/**
 * Widths a uiSchema may give a short answer (`"ui:options": {"width": "short"}`): a postal code,
 * a date or an SSN gets an input its length, not the form's width. Wide enough for the longest
 * such prompt as the input's label ('Date of birth (MM/DD/YYYY) *').
 */
export const INPUT_WIDTHS = { short: '18rem', medium: '26rem' } as const;

function inputWidth(uiSchema: FieldTemplateProps['uiSchema']): CSSProperties | undefined {
  const width = getUiOptions(uiSchema).width;
  return typeof width === 'string' && width in INPUT_WIDTHS
    ? { maxWidth: INPUT_WIDTHS[width as keyof typeof INPUT_WIDTHS] }
    : undefined;
}

/**
 * A question (a top-level field) far off screen is not styled, laid out or painted while the
 * user types elsewhere (`content-visibility: auto`): the registration form is several screens
 * long, and without this every keystroke's frame covers all of it (`npm run bench`: keystroke
 * p95 −1.6 ms). Skipped content stays in the accessibility tree, focusable and findable. The
 * padding, cancelled by the margin, keeps a floating label inside the paint clip this implies.
 */
const FAR_OFF_SCREEN_SKIPPED: CSSProperties = {
  contentVisibility: 'auto',
  containIntrinsicSize: 'auto 80px',
  paddingTop: 8,
  marginTop: -8,
};
