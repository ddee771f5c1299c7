/**
 * The widget registry of the form engine: every name a uiSchema may give as `ui:widget`
 * (src/shared/forms/widgetNames.ts) mapped to its component. The custom widgets hold no wording:
 * labels, prompts and messages come from the schema and uiSchema through rjsf's props. rjsf's
 * own names map to the MUI theme's widgets (text-like ones render our buffered BaseInputTemplate).
 * Typed as a full Record so a name added to WIDGET_NAMES without a component fails to compile.
 */
import { getDefaultRegistry } from '@rjsf/core';
import { Theme } from '@rjsf/mui';
import type { RegistryWidgetsType, Widget } from '@rjsf/utils';
import type { WidgetName } from '../../../shared/forms/widgetNames';
import { AgreementWidget } from './AgreementWidget';
import { ChoiceWidget } from './ChoiceWidget';
import { CountryWidget } from './CountryWidget';
import { DateWidget } from './DateWidget';
import { ImageUploadWidget } from './ImageUploadWidget';
import { LeiWidget } from './LeiWidget';
import { PdfUploadWidget } from './PdfUploadWidget';
import { PhoneWidget } from './PhoneWidget';
import { RadioWidget } from './RadioWidget';
import { RegionWidget } from './RegionWidget';
import { SsnWidget } from './SsnWidget';
import { YesNoWidget } from './YesNoWidget';

const stock: RegistryWidgetsType = { ...getDefaultRegistry().widgets, ...Theme.widgets };

function stockWidget(name: string): Widget {
  const widget = stock[name];
  if (!widget) throw new Error(`rjsf has no ${name}`);
  return widget;
}

export const WIDGETS: Record<WidgetName, Widget> = {
  ssn: SsnWidget,
  phone: PhoneWidget,
  date: DateWidget,
  country: CountryWidget,
  region: RegionWidget,
  imageUpload: ImageUploadWidget,
  pdfUpload: PdfUploadWidget,
  agreement: AgreementWidget,
  yesNo: YesNoWidget,
  lei: LeiWidget,
  text: stockWidget('TextWidget'),
  email: stockWidget('EmailWidget'),
  textarea: stockWidget('TextareaWidget'),
  select: ChoiceWidget,
  radio: RadioWidget,
  checkbox: stockWidget('CheckboxWidget'),
  updown: stockWidget('UpDownWidget'),
  hidden: stockWidget('HiddenWidget'),
};

/** What SchemaForm passes as rjsf's `widgets`: the stock widgets by class name plus ours by name. */
export const REGISTRY_WIDGETS: RegistryWidgetsType = { ...stock, ...WIDGETS };
