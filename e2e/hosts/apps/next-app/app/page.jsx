import { SignPage } from './SignPage.jsx';

// A server component: the request's query reaches the client component as props, so the server renders the
// viewer itself (not an empty shell that renders it only in the browser).
export default async function Page({ searchParams }) {
  const { documentId, apiKey, baseUrl } = await searchParams;
  return (
    <main>
      <h1>Sign the agreement</h1>
      <SignPage documentId={documentId} apiKey={apiKey} baseUrl={baseUrl} />
    </main>
  );
}
