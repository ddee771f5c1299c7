import { memo } from 'react';
import { Templates } from '@rjsf/mui';
import type { FieldTemplateProps } from '@rjsf/utils';
import { FieldPointerContext, toPointer } from '../engine';

const MuiFieldTemplate = Templates.FieldTemplate!;

/**
 * The MUI field template (label, description, errors under `errorId(id)`, help), plus the
 * field's JSON pointer for the widgets inside it: upload widgets key their File by it and the
 * region widget finds its sibling country with it.
 */
export const FieldTemplate = memo(function FieldTemplate(props: FieldTemplateProps) {
  const pointer = toPointer(props.fieldPathId.path);
  const field = (
    <FieldPointerContext.Provider value={pointer}>
      <MuiFieldTemplate {...props} />
    </FieldPointerContext.Provider>
  );
  return props.fieldPathId.path.length === 1 ? (
    <div className="question" style={FAR_OFF_SCREEN_SKIPPED}>
      {field}
    </div>
  ) : (
    field
  );
});

/**
 * A question (a top-level field) far off screen is not styled, laid out or painted while the
 * user types elsewhere (`content-visibility: auto`): the registration form is several screens
 * long, and without this every keystroke's frame covers all of it (`npm run bench`: keystroke
 * p95 −1.6 ms). Skipped content stays in the accessibility tree, focusable and findable. The
 * padding, cancelled by the margin, keeps a floating label inside the paint clip this implies.
 */
const FAR_OFF_SCREEN_SKIPPED = {
  contentVisibility: 'auto',
  containIntrinsicSize: 'auto 80px',
  paddingTop: 8,
  marginTop: -8,
} as const;
