import { defineOpenApiFragment, error } from './openapi-fragment';

/** This document and its browsable page (swagger-ui-dist from the package, no CDN): OpenApiController. */
export const openApiDocsOpenApi = defineOpenApiFragment({
  name: 'openapi',
  operations: [
    {
      method: 'get',
      path: '/api/openapi.json',
      operationId: 'getOpenApiDocument',
      auth: 'public',
      tag: 'Documentation',
      summary: 'This OpenAPI 3.1 document',
      responses: { 200: { description: 'The document', text: 'application/json' } },
    },
    {
      method: 'get',
      path: '/api/docs',
      operationId: 'getDocsPage',
      auth: 'public',
      tag: 'Documentation',
      summary: 'A browsable page of this document (Swagger UI)',
      responses: { 200: { description: 'The page', html: true } },
    },
    {
      method: 'get',
      path: '/api/docs/init.js',
      operationId: 'getDocsInitScript',
      auth: 'public',
      tag: 'Documentation',
      summary: "The page's start-up script",
      responses: { 200: { description: 'The script', text: 'text/javascript' } },
    },
    {
      method: 'get',
      path: '/api/docs/assets/{file}',
      operationId: 'getDocsAsset',
      auth: 'public',
      tag: 'Documentation',
      summary: "Swagger UI's files",
      parameters: [
        {
          name: 'file',
          in: 'path',
          description: 'One of the files the page uses',
          schema: { enum: ['swagger-ui.css', 'swagger-ui-bundle.js', 'swagger-ui-standalone-preset.js', 'favicon-32x32.png'] },
        },
      ],
      responses: { 200: { description: 'The file', text: '*/*' }, 404: error('Not found (any other name)') },
    },
  ],
});
