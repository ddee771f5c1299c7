/**
 * The widget registry of the form engine: every name a uiSchema may give as `ui:widget`
 * (src/shared/forms/model/widgetNames.ts) mapped to its component. The custom widgets hold no wording:
 * labels, prompts and messages come from the schema and uiSchema through rjsf's props. rjsf's
 * own names keep rjsf's meaning: the MUI theme's widgets (text-like ones render our buffered
 * BaseInputTemplate), and ours where the stock ones would fight the buffered input (a date, a
 * time, a date-time: the answer differs from the input's text) or lose answers (a choice by
 * index). rjsf picks a widget for `format: date`/`time`/`date-time` by these names too.
 * Typed as a full Record so a name added to WIDGET_NAMES without a component fails to compile.
 */
import { getDefaultRegistry } from '@rjsf/core';
import { Theme } from '@rjsf/mui';
import type { RegistryWidgetsType, Widget } from '@rjsf/utils';
import type { WidgetName } from '../../../shared/forms/model/widgetNames';
import { AgreementWidget } from './AgreementWidget';
import { ChoiceWidget } from './ChoiceWidget';
import { CountryWidget } from './CountryWidget';
import { DateTimeWidget } from './DateTimeWidget';
import { DateWidget } from './DateWidget';
import { ImageUploadWidget } from './ImageUploadWidget';
import { LeiWidget } from './LeiWidget';
import { PdfUploadWidget } from './PdfUploadWidget';
import { PhoneWidget } from './PhoneWidget';
import { RadioWidget } from './RadioWidget';
import { RegionWidget } from './RegionWidget';
import { SsnWidget } from './SsnWidget';
import { TimeWidget } from './TimeWidget';
import { UsDateWidget } from './UsDateWidget';
import { YesNoWidget } from './YesNoWidget';

const stock: RegistryWidgetsType = { ...getDefaultRegistry().widgets, ...Theme.widgets };

function stockWidget(name: string): Widget {
  const widget = stock[name];
  if (!widget) throw new Error(`rjsf has no ${name}`);
  return widget;
}

const WIDGETS: Record<WidgetName, Widget> = {
  ssn: SsnWidget,
  phone: PhoneWidget,
  usDate: UsDateWidget,
  country: CountryWidget,
  region: RegionWidget,
  imageUpload: ImageUploadWidget,
  pdfUpload: PdfUploadWidget,
  agreement: AgreementWidget,
  yesNo: YesNoWidget,
  lei: LeiWidget,
  text: stockWidget('TextWidget'),
  email: stockWidget('EmailWidget'),
  password: stockWidget('PasswordWidget'),
  textarea: stockWidget('TextareaWidget'),
  select: ChoiceWidget,
  radio: RadioWidget,
  checkbox: stockWidget('CheckboxWidget'),
  checkboxes: stockWidget('CheckboxesWidget'),
  updown: stockWidget('UpDownWidget'),
  range: stockWidget('RangeWidget'),
  hidden: stockWidget('HiddenWidget'),
  date: DateWidget,
  time: TimeWidget,
  datetime: DateTimeWidget,
  'alt-date': DateWidget,
  'alt-datetime': DateTimeWidget,
};

/**
 * What SchemaForm passes as rjsf's `widgets`: the stock widgets by class name, ours replacing
 * those rjsf reaches by class name (a select for a choice field, a date-time for
 * `format: date-time`), plus ours by name.
 */
export const REGISTRY_WIDGETS: RegistryWidgetsType = {
  ...stock,
  SelectWidget: ChoiceWidget,
  RadioWidget,
  DateWidget,
  TimeWidget,
  DateTimeWidget,
  ...WIDGETS,
};
