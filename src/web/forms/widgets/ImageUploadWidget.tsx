import type { WidgetProps } from '@rjsf/utils';
import { FileUpload } from './FileUpload';

/** An image file answer (photo ID sides): see FileUpload. */
export function ImageUploadWidget(props: WidgetProps) {
  return <FileUpload {...props} accept="image/*" />;
}
