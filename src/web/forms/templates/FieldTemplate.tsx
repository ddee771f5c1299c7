import { memo, type CSSProperties } from 'react';
import FormControl from '@mui/material/FormControl';
import Typography from '@mui/material/Typography';
import { Templates } from '@rjsf/mui';
import { ADDITIONAL_PROPERTY_FLAG, getUiOptions, type FieldTemplateProps } from '@rjsf/utils';
import { FieldPointerContext, toPointer } from '../engine';

const MuiFieldTemplate = Templates.FieldTemplate!;

/**
 * One field: its widget (which draws its own label), description, errors under `errorId(id)` and
 * help, in a single MUI FormControl (which colours the error text), plus the field's JSON pointer
 * for the widgets inside it: upload widgets key their File by it and the region widget finds its
 * sibling country with it.
 *
 * rjsf-mui's template nests the same content three deep (its ObjectFieldTemplate's Grid item, a
 * classNames div, the FormControl); one element per field keeps the DOM every keystroke's frame
 * walks shallower. A key of an `additionalProperties` map still gets rjsf-mui's template (its
 * rename and remove controls).
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
  } = props;
  return (
    <FieldPointerContext.Provider value={toPointer(fieldPathId.path)}>
      {hidden ? (
        <div style={HIDDEN}>{children}</div>
      ) : ADDITIONAL_PROPERTY_FLAG in schema ? (
        <MuiFieldTemplate {...props} />
      ) : (
        <FormControl
          fullWidth
          error={!!rawErrors && rawErrors.length > 0}
          required={required}
          className={classNames}
          style={fieldPathId.path.length === 1 ? { ...style, ...FAR_OFF_SCREEN_SKIPPED } : style}
        >
          {children}
          {displayLabel && getUiOptions(uiSchema).widget !== 'checkbox' && rawDescription ? (
            <Typography variant="caption" color="textSecondary">
              {description}
            </Typography>
          ) : null}
          {errors}
          {help}
        </FormControl>
      )}
    </FieldPointerContext.Provider>
  );
});

const HIDDEN: CSSProperties = { display: 'none' };

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
