import type { WidgetProps } from '@rjsf/utils';
import { FileUpload } from './FileUpload';

/** A PDF file answer (IRS Form W-2): see FileUpload. */
export function PdfUploadWidget(props: WidgetProps) {
  return <FileUpload {...props} accept="application/pdf" />;
}
