import { endpoints } from '@signet/contract';
import type { AppContext } from '../app-context.js';
import { contentDisposition, sendStoredFile } from '../http/file-response.js';
import { readTemplateContent } from '../storage/queries/templates.js';
import { cacheForTokenHolder } from './sdk-document-token.js';
import { handler, type EndpointHandlers } from './serve.js';

/** `GET /sdk/templates/{templateId}/file?token=…`: the template's PDF, for a builder's pdf.js (ranges, 304). */
export function templateFileHandler(deps: AppContext): Pick<EndpointHandlers, 'getTemplateFile'> {
  return {
    getTemplateFile: handler(endpoints.getTemplateFile, {
      readsItself: ['params', 'query'],
      async handle(c) {
        const template = c.get('tokenTemplate');
        const etag = `"${template.sha256}"`;
        cacheForTokenHolder(c, etag);
        c.header('Content-Disposition', contentDisposition('inline', template.filename));
        return sendStoredFile(c, {
          size: template.fileSize,
          etag,
          read: (start, end) => readTemplateContent(deps.storage.db.query, template.id, start, end),
        });
      },
    }),
  };
}
