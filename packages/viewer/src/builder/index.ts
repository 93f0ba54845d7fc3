export { SigningBuilder } from './SigningBuilder.js';
export type { SigningBuilderEvents, SigningBuilderProps } from './SigningBuilder.js';
export type { BuilderMessages } from './messages.js';
