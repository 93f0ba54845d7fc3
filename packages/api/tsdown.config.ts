import { defineConfig } from 'tsdown';
import { libraryDefaults } from '../../tsdown.shared.js';

export default defineConfig(libraryDefaults);
