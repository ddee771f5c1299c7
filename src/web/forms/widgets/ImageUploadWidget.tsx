import type { WidgetProps } from '@rjsf/utils';
import { FileUpload } from './FileUpload';

/**
 * What the file dialog offers for a photo: images, HEIC named by extension too (desktop systems
 * often know no MIME type for a phone's .heic, and would hide it); a PDF too where the schema
 * takes a scanned ID (`x-file: image-or-pdf`).
 */
export const IMAGE_ACCEPT = 'image/*,.heic,.heif';

/** An image file answer (photo ID sides): see FileUpload. */
export function ImageUploadWidget(props: WidgetProps) {
  const orPdf = props.schema['x-file'] === 'image-or-pdf';
  return (
    <FileUpload {...props} accept={orPdf ? `${IMAGE_ACCEPT},application/pdf` : IMAGE_ACCEPT} />
  );
}
