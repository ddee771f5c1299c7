import { Link as RouterLink } from 'react-router-dom';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Typography from '@mui/material/Typography';
import { PageTitle } from '../../app/PageTitle';
import { SupportContact } from '../../app/SupportContact';

const NOT_FOUND_TITLE = 'Page not found';

/**
 * An address the portal has no page for (issue 38 §4): said as such in the portal's layout, with
 * a way home; the server answers such an address with 404 (src/shared/config/appPaths.ts).
 */
export function NotFoundPage() {
  return (
    <Box sx={{ maxWidth: 640, mx: 'auto', my: 8, px: 3, textAlign: 'center' }}>
      <PageTitle title={NOT_FOUND_TITLE} />
      <Typography variant="h1" gutterBottom>
        {NOT_FOUND_TITLE}
      </Typography>
      <Typography sx={{ mb: 2 }}>
        There is no page at this address. The link may be mistyped, or the page may have moved.
      </Typography>
      <Typography sx={{ mb: 3 }}>
        If you followed a link from us, tell support at <SupportContact />.
      </Typography>
      <Button variant="contained" component={RouterLink} to="/home">
        Go to the home page
      </Button>
    </Box>
  );
}
