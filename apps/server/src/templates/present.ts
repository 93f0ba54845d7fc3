import type { Template, TemplateSummary } from '@signet/contract';
import type { TemplateRecord } from '../storage/types.js';

/** A template in a list. */
export function templateSummary(template: TemplateRecord): TemplateSummary {
  const { id, name, filename, pageCount, version, createdAt, updatedAt } = template;
  return { id, name, filename, pageCount, version, createdAt, updatedAt };
}

/** A template as `GET /templates/{templateId}` shows it, with the `documentUrl` of its PDF. */
export function presentTemplate(template: TemplateRecord, documentUrl: string): Template {
  return {
    ...templateSummary(template),
    fileSize: template.fileSize,
    sha256: template.sha256,
    fields: template.fields,
    ...(template.roles
      ? { roles: template.roles.map((role) => ({ id: role.id, name: role.name, order: role.order ?? 1 })), signingOrder: template.signingOrder }
      : {}),
    ...(template.expiresInDays === undefined ? {} : { expiresInDays: template.expiresInDays }),
    documentUrl,
  };
}
