export * from './ids.js';
export * from './errors.js';
export * from './checksum.js';
export * from './schemas/envelope.js';
export * from './schemas/key.js';
export * from './schemas/field.js';
export * from './schemas/document.js';
export * from './schemas/submission.js';
