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
  return (
    <FieldPointerContext.Provider value={pointer}>
      <MuiFieldTemplate {...props} />
    </FieldPointerContext.Provider>
  );
});
