import Box from '@mui/material/Box';
import Divider from '@mui/material/Divider';
import Typography from '@mui/material/Typography';
import type { TitleFieldProps } from '@rjsf/utils';

/**
 * An object's title (the mailing address's) as a heading at its place in the page's outline:
 * under a step's sections (h3) it is an h4, elsewhere (a one-page form under its h2, a dialog
 * under its title) an h3. rjsf-mui draws every such title as an h5, which skips levels
 * (Lighthouse `heading-order`).
 */
export function TitleFieldTemplate({ id, title, optionalDataControl, registry }: TitleFieldProps) {
  const context: unknown = registry.formContext;
  const inSteps =
    !!context && typeof context === 'object' && !!(context as { step?: unknown }).step;
  return (
    <Box id={id} sx={{ mb: 1, mt: 1 }}>
      <Box sx={{ display: 'flex', alignItems: 'center' }}>
        <Typography component={inSteps ? 'h4' : 'h3'} variant="h6" sx={{ flex: 1 }}>
          {title}
        </Typography>
        {optionalDataControl}
      </Box>
      <Divider />
    </Box>
  );
}
