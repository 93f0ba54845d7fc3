/** The names of a path's `{parameters}`. */
export type PathParams<P extends string> = P extends `${string}{${infer Name}}${infer Rest}` ? Name | PathParams<Rest> : never;

/**
 * An endpoint's path with its parameters filled in, each URL-encoded.
 * @example endpointPath(endpoints.getSubmission, { documentId: 'doc_V1StGXR8Z5jdHi6BmyTaQ7fz' }) // '/documents/doc_V1StGXR8Z5jdHi6BmyTaQ7fz/submission'
 */
export function endpointPath<E extends { readonly path: string }>(endpoint: E, params: Record<PathParams<E['path']>, string>): string {
  const values = params as Record<string, string>;
  return endpoint.path.replace(/\{([^}]+)\}/g, (_, name: string) => encodeURIComponent(values[name]!));
}
