import { dirname, join } from 'node:path';
import { Controller, Get, Header, NotFoundException, Param, Res } from '@nestjs/common';
import type { Response } from 'express';
import { buildOpenApiDocument } from './openapi-document';

/** swagger-ui-dist's files, served from node_modules: the page works offline, with no CDN. */
const SWAGGER_DIR = dirname(require.resolve('swagger-ui-dist/package.json'));
const ASSETS: Readonly<Record<string, string>> = {
  'swagger-ui.css': 'text/css; charset=utf-8',
  'swagger-ui-bundle.js': 'text/javascript; charset=utf-8',
  'swagger-ui-standalone-preset.js': 'text/javascript; charset=utf-8',
  'favicon-32x32.png': 'image/png',
};

const DOCS_CSP =
  "default-src 'none'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; connect-src 'self'; font-src 'self' data:; frame-ancestors 'none'; base-uri 'none'; form-action 'none'";

const PAGE = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Potomac PC Repair API</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<link rel="stylesheet" href="/api/docs/assets/swagger-ui.css">
<link rel="icon" type="image/png" href="/api/docs/assets/favicon-32x32.png"></head>
<body><div id="swagger-ui"></div>
<script src="/api/docs/assets/swagger-ui-bundle.js"></script>
<script src="/api/docs/assets/swagger-ui-standalone-preset.js"></script>
<script src="/api/docs/init.js"></script>
</body></html>`;

const INIT = `window.ui = SwaggerUIBundle({
  url: '/api/openapi.json',
  dom_id: '#swagger-ui',
  deepLinking: true,
  presets: [SwaggerUIBundle.presets.apis, SwaggerUIStandalonePreset],
  layout: 'StandaloneLayout',
  validatorUrl: null,
  requestInterceptor: function (request) {
    request.headers['X-Requested-With'] = 'XMLHttpRequest';
    return request;
  },
});`;

@Controller()
export class OpenApiController {
  private readonly document = buildOpenApiDocument();

  @Get('openapi.json')
  openapi(): Record<string, unknown> {
    return this.document;
  }

  @Get('docs')
  @Header('Content-Type', 'text/html; charset=utf-8')
  @Header('Content-Security-Policy', DOCS_CSP)
  page(): string {
    return PAGE;
  }

  @Get('docs/init.js')
  @Header('Content-Type', 'text/javascript; charset=utf-8')
  init(): string {
    return INIT;
  }

  @Get('docs/assets/:file')
  asset(@Param('file') file: string, @Res() response: Response): void {
    const type = Object.hasOwn(ASSETS, file) ? ASSETS[file] : undefined;
    if (!type) throw new NotFoundException({ message: 'Not found' });
    response.type(type).setHeader('Cache-Control', 'public, max-age=86400');
    response.sendFile(join(SWAGGER_DIR, file));
  }
}
