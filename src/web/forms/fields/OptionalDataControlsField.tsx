import Button from '@mui/material/Button';
import {
  getSchemaType,
  getUiOptions,
  isFormDataAvailable,
  optionalControlsId,
  type FieldProps,
} from '@rjsf/utils';
import { engineOf } from '../engine';
import { stringOption } from '../widgets/a11y';
import { toPointer } from '../../../shared/forms/model/pointer';

/**
 * The add and remove buttons of an optional object (rjsf v6's optional data controls, drawn
 * where a uiSchema turns them on: `"ui:globalOptions": {"enableOptionalDataFieldForType":
 * ["object"]}`, or `"ui:enableOptionalDataFieldForType"` on one field). An object left out stays
 * out of the answers, so its own required questions are not asked; "Add" draws its questions
 * (with its defaults), "Remove" takes it out again, answers and all. Added and left blank, it is
 * still absent from the answers (rjsf's live omit drops an empty optional object). The buttons say the object's prompt
 * ('Add Employer'), or the field's `ui:options.addLabel` / `removeLabel`. rjsf's own are bare icons
 * worded "Add data for optional field".
 */
export function OptionalDataControlsField(props: FieldProps) {
  const { schema, uiSchema, formData, disabled, readonly, onChange, errorSchema, fieldPathId } =
    props;
  const { schemaUtils, globalUiOptions } = props.registry;
  const added = engineOf(props.registry)?.added;
  const pointer = toPointer(fieldPathId.path);
  if (disabled || readonly) return null;
  const options = getUiOptions(uiSchema, globalUiOptions);
  const title = typeof options.title === 'string' ? options.title : schema.title;
  if (isFormDataAvailable(formData)) {
    return (
      <Button
        id={optionalControlsId(fieldPathId, 'Remove')}
        className="rjsf-remove-optional-data"
        variant="text"
        onClick={() => {
          added?.remove(pointer);
          onChange(undefined, fieldPathId.path, errorSchema);
        }}
      >
        {stringOption(options, 'removeLabel', title ? `Remove ${title}` : 'Remove')}
      </Button>
    );
  }
  const add = () => {
    const value: unknown =
      schemaUtils.getDefaultFormState(schema, formData, 'excludeObjectChildren') ??
      (getSchemaType(schema) === 'array' ? [] : {});
    added?.add(pointer);
    onChange(value, fieldPathId.path, errorSchema);
  };
  return (
    <Button
      id={optionalControlsId(fieldPathId, 'Add')}
      className="rjsf-add-optional-data"
      variant="outlined"
      onClick={add}
    >
      {stringOption(options, 'addLabel', title ? `Add ${title}` : 'Add')}
    </Button>
  );
}
