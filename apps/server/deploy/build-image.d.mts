/** Types of build-image.mjs, for the image's check (test/image/image.check.ts). */
export declare const BASE_IMAGE: string;
export declare const IMAGE: string;
export declare const podmanEnv: NodeJS.ProcessEnv;
export declare function ensureTools(): void;
export declare function buildImage(options?: { rebuildBase?: boolean; useBuilt?: boolean }): { image: string; size: number };
