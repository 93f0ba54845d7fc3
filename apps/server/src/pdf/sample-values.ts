import type { FieldDefinition, FieldValue } from '@signet/contract';

/** A 16 × 12 px blue JPEG: the photo of an image field in samples and tests. */
export const SAMPLE_JPEG_DATA_URL =
  'data:image/jpeg;base64,/9j/2wBDAAYEBQYFBAYGBQYHBwYIChAKCgkJChQODwwQFxQYGBcUFhYaHSUfGhsjHBYWICwgIyYnKSopGR8tMC0oMCUoKSj/2wBDAQcHBwoIChMKChMoGhYaKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCj/wAARCAAMABADASIAAhEBAxEB/8QAFQABAQAAAAAAAAAAAAAAAAAAAAb/xAAUEAEAAAAAAAAAAAAAAAAAAAAA/8QAFQEBAQAAAAAAAAAAAAAAAAAABQb/xAAUEQEAAAAAAAAAAAAAAAAAAAAA/9oADAMBAAIRAxEAPwCfAUoR/9k=';

/**
 * A value that completes `field` and keeps its rules, as a signer would enter it: a name, a date, a ticked box, the
 * first option, a number on its step within its limits, `image` for signatures and initials (a PNG data URL).
 * @example sampleValue({ type: 'email', … }, png) // { type: 'email', content: 'ada@example.com' }
 */
export function sampleValue(field: FieldDefinition, image: string): FieldValue {
  switch (field.type) {
    case 'text':
      return { type: 'text', content: 'Ada Lovelace' };
    case 'signature':
    case 'initials':
      return { type: field.type, imageData: image };
    case 'date':
      return { type: 'date', content: '2026-11-22' };
    case 'checkbox':
      return { type: 'checkbox', checked: true };
    case 'number':
      return { type: 'number', content: String(field.validation?.min ?? 1) };
    case 'email':
      return { type: 'email', content: 'ada@example.com' };
    case 'phone':
      return { type: 'phone', content: '+44 20 7946 0958' };
    case 'textarea':
      return { type: 'textarea', content: 'First line\nSecond line' };
    case 'select':
    case 'radio':
      return { type: field.type, value: field.options?.[0]?.value ?? '' };
    case 'image':
      return { type: 'image', imageData: SAMPLE_JPEG_DATA_URL };
  }
}
