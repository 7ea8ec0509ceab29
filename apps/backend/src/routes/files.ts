import { apiErrorSchema, fileSchema } from '@baton/schemas';
import { Hono } from 'hono';
import { describeRoute } from 'hono-openapi';
import type { AppEnv } from '../http/access';
import { fileResponseHeaders, readUploadedFile, uploadBodyLimit } from '../http/files';
import { errorResponses, jsonResponse } from '../http/validation';
import { fileTooLarge, readFile, storeUpload } from '../services/files';
import type { AppDeps } from './deps';

const tags = ['Files'];

/** The upload route, which has its own body limit instead of the API's 1 MiB (app.ts). */
export const isFileUpload = (method: string, path: string) => method === 'POST' && /^\/api\/workspaces\/[^/]+\/files\/?$/.test(path);

/** Mounted at /api/workspaces/:workspaceId/files: uploads for chats, and their bytes. */
export function fileRoutes({ db, files }: AppDeps) {
  return new Hono<AppEnv, {}, '/:workspaceId/files'>()
    .post(
      '/',
      describeRoute({
        tags,
        summary: 'Upload a file (to attach to a message)',
        description: `\`multipart/form-data\` with the file in the field \`file\`. Its type is read from its bytes: PNG, JPEG, GIF or WebP images, PDF, or UTF-8 text (plain, Markdown, CSV, JSON, source code); the client's type and the name's extension are not trusted. At most ${files.limits.maxBytes} bytes here (\`BATON_FILE_MAX_BYTES\`). Until a message attaches it, only you can read it, and it is removed after 24 hours.`,
        requestBody: {
          content: {
            'multipart/form-data': {
              schema: { type: 'object', properties: { file: { type: 'string', format: 'binary' } }, required: ['file'] },
            },
          },
        },
        responses: {
          201: jsonResponse('The stored file; `url` serves its bytes', fileSchema),
          ...errorResponses,
          413: jsonResponse('The file is over the size limit (named in the message)', apiErrorSchema),
          415: jsonResponse('Not a type Baton accepts (the accepted types are listed in the message)', apiErrorSchema),
        },
      }),
      uploadBodyLimit(files.limits.maxBytes, () => fileTooLarge(files.limits)),
      async (c) => c.json(await storeUpload(db, files, c.get('access'), await readUploadedFile(c, 'file')), 201),
    )
    .get(
      '/:id',
      describeRoute({
        tags,
        summary: "A file's bytes",
        description:
          'For its uploader while it is in no chat, then for whoever may read its chat. Images are shown inline; every other file is a download (`Content-Disposition: attachment`), never a page of this origin.',
        responses: {
          200: { description: 'The bytes, typed as stored', content: { '*/*': { schema: { type: 'string' as const, format: 'binary' } } } },
          401: errorResponses[401],
          404: errorResponses[404],
        },
      }),
      async (c) => {
        const { file, bytes } = await readFile(db, files.store, c.get('access'), c.req.param('id'));
        return c.body(bytes as Uint8Array<ArrayBuffer>, 200, fileResponseHeaders(file));
      },
    );
}
