import { parse } from 'csv-parse/sync';
import { BULK_MAX_ROWS, SIGNER_LOCALES, type BulkRow, type FieldDefinition, type FieldValue, type SignerLocale } from '@signet/contract';
import { validationError } from '../../errors.js';
import type { TemplateRecord } from '../../storage/types.js';

/*
 * A bulk request as CSV (docs/templates.md, "Bulk"): a header row, then one row per document. Columns: `key`; for
 * each role `<role>.name` (required), `<role>.email` and `<role>.locale` (optional); `values.<fieldId>` for a field to prefill. Cells
 * are text as they are written: a value starting with `=` or `+` is stored as that text, never evaluated.
 */

/** A CSV cell's value for a field, by the field's type; an empty cell is no value. */
function cellValue(field: FieldDefinition, cell: string, line: number, column: string): FieldValue {
  switch (field.type) {
    case 'text':
    case 'textarea':
    case 'email':
    case 'phone':
    case 'date':
    case 'number':
      return { type: field.type, content: cell };
    case 'checkbox': {
      const word = cell.trim().toLowerCase();
      if (word !== 'true' && word !== 'false') throw validationError(`line ${line}`, `column "${column}": a checkbox is true or false, not ${JSON.stringify(cell)}`);
      return { type: 'checkbox', checked: word === 'true' };
    }
    case 'select':
    case 'radio':
      return { type: field.type, value: cell };
    default:
      throw validationError(`line ${line}`, `column "${column}": a ${field.type} field cannot be filled in from a CSV`);
  }
}

/** A language cell's value: one of the signer languages, as written. */
function cellLocale(cell: string, line: number, column: string): SignerLocale {
  const locale = SIGNER_LOCALES.find((candidate) => candidate === cell);
  if (!locale) throw validationError(`line ${line}`, `column "${column}": a language is one of ${SIGNER_LOCALES.join(', ')}, not ${JSON.stringify(cell)}`);
  return locale;
}

/** What each header column fills in: the key, a role's name, e-mail or language, or a field's value. */
type Column = { kind: 'key' } | { kind: 'name' | 'email' | 'locale'; role: string } | { kind: 'value'; field: FieldDefinition };

function headerColumns(template: TemplateRecord, header: string[]): Column[] {
  const roles = new Set((template.roles ?? []).map((role) => role.id));
  const fields = new Map(template.fields.map((field) => [field.id, field]));
  const seen = new Set<string>();
  const columns = header.map((name): Column => {
    if (seen.has(name)) throw validationError('line 1', `column "${name}" appears twice`);
    seen.add(name);
    if (name === 'key') return { kind: 'key' };
    const dot = name.indexOf('.');
    const [head, rest] = dot === -1 ? [name, ''] : [name.slice(0, dot), name.slice(dot + 1)];
    if (head === 'values' && fields.has(rest)) return { kind: 'value', field: fields.get(rest)! };
    if (roles.has(head) && (rest === 'name' || rest === 'email' || rest === 'locale')) return { kind: rest, role: head };
    const expected = ['key', ...[...roles].flatMap((role) => [`${role}.name`, `${role}.email`, `${role}.locale`]), ...[...fields.keys()].map((id) => `values.${id}`)];
    throw validationError('line 1', `unknown column "${name}"; the columns are ${expected.join(', ')}`);
  });
  if (!seen.has('key')) throw validationError('line 1', 'the column "key" is required');
  const unnamed = [...roles].find((role) => !seen.has(`${role}.name`));
  if (unnamed) throw validationError('line 1', `the column "${unnamed}.name" is required: every role needs a signer`);
  return columns;
}

/**
 * The rows of a CSV bulk request for `template`, each with the CSV line it starts on: a 400 naming `line N` (the
 * header is line 1) for a CSV that does not parse, an unknown or missing column, a row of another length, or a cell
 * that cannot be its field's value.
 * @example csvRows(template, 'key,tenant.name\nr1,Ada\n') // [{ line: 2, row: { key: 'r1', signers: [{ role: 'tenant', name: 'Ada' }] } }]
 */
export function csvRows(template: TemplateRecord, text: string): Array<{ line: number; row: BulkRow }> {
  let records: Array<{ record: string[]; info: { lines: number } }>;
  try {
    records = parse(text, { bom: true, skip_empty_lines: true, info: true, relax_quotes: false, to: BULK_MAX_ROWS + 2 }) as unknown as typeof records;
  } catch (error) {
    const line = typeof (error as { lines?: unknown }).lines === 'number' ? (error as { lines: number }).lines : 1;
    throw validationError(`line ${line}`, `the CSV does not parse: ${(error as Error).message}`);
  }
  const [header, ...body] = records;
  if (!header) throw validationError('body', 'the CSV is empty: a header row, then one row per document');
  if (body.length === 0) throw validationError('body', 'the CSV has no rows after its header');
  if (body.length > BULK_MAX_ROWS) throw validationError('rows', `at most ${BULK_MAX_ROWS} rows`);
  const columns = headerColumns(template, header.record);
  return body.map(({ record, info }) => {
    const line = info.lines;
    const row: BulkRow = { key: '' };
    const signers = new Map<string, { role: string; name: string; email?: string; locale?: SignerLocale }>();
    const values: Record<string, FieldValue> = {};
    record.forEach((cell, index) => {
      const column = columns[index]!;
      if (column.kind === 'key') row.key = cell;
      else if (column.kind === 'value') {
        if (cell !== '') values[column.field.id] = cellValue(column.field, cell, line, header.record[index]!);
      } else {
        const signer = signers.get(column.role) ?? { role: column.role, name: '' };
        if (column.kind === 'name') signer.name = cell;
        else if (column.kind === 'email' && cell !== '') signer.email = cell;
        else if (column.kind === 'locale' && cell !== '') signer.locale = cellLocale(cell, line, header.record[index]!);
        signers.set(column.role, signer);
      }
    });
    if (signers.size > 0) row.signers = [...signers.values()];
    if (Object.keys(values).length > 0) row.values = values;
    return { line, row };
  });
}
