import type { BuilderClient } from '@signet/api';
import type { Draft, Template } from '@signet/contract';

/**
 * A template as the builder edits a draft: its roles where a draft's signers are (without e-mail addresses), its
 * version, fields and `documentUrl` (docs/templates.md, "Let the author place the fields in your page").
 * @example templateAsDraft(await client.getTemplate('tpl_…')).signers // [{ id: 'tenant', name: 'Tenant', order: 1 }]
 */
export function templateAsDraft(template: Template): Draft {
  const draft: Draft = {
    id: template.id,
    filename: template.filename,
    mimeType: 'application/pdf',
    pageCount: template.pageCount,
    fileSize: template.fileSize,
    createdAt: template.createdAt,
    updatedAt: template.updatedAt,
    version: template.version,
    status: 'draft',
    fields: template.fields,
    documentUrl: template.documentUrl,
  };
  if (!template.roles) return draft;
  return { ...draft, signingOrder: template.signingOrder ?? 'parallel', signers: template.roles.map(({ id, name, order }) => ({ id, name, order })) };
}

/**
 * The client the builder works with on a template: reading and saving the template where it reads and saves a draft
 * (each save a new version under `If-Match`), the draft's signers saved as the template's roles. A template is never
 * sent: documents are made from it by the host's backend.
 */
export function templateBuilderClient(client: BuilderClient): BuilderClient {
  return {
    ...client,
    getDraft: async (templateId, options) => templateAsDraft(await client.getTemplate(templateId, options)),
    updateDraft: async (templateId, { version, fields, signers, signingOrder }, options) =>
      templateAsDraft(
        await client.updateTemplate(
          templateId,
          {
            version,
            fields,
            ...(signers ? { roles: signers.map(({ id, name, order }) => ({ id, name, ...(order === undefined ? {} : { order }) })) } : {}),
            ...(signers && signingOrder ? { signingOrder } : {}),
          },
          options,
        ),
      ),
    sendDocument: () => Promise.reject(new Error('A template is not sent: make documents from it with POST /templates/{templateId}/documents')),
  };
}
