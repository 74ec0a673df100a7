import { z } from 'zod';

// zod 4 probes once whether it may compile validators with `new Function`; the site's Content-Security-Policy
// (rightly) forbids that, so the probe shows up as a CSP violation report. Tell zod not to try: it validates
// the same way without code generation. Imported first by the browser entry, before anything parses.
z.config({ jitless: true });
