// The page's own script: the document and key from the address (?documentId=…&apiKey=…&baseUrl=…), and the
// element's events recorded for the test.
const params = new URLSearchParams(location.search);
const viewer = document.querySelector('signet-signing-viewer');
for (const type of ['signet:ready', 'signet:complete', 'signet:error']) {
  viewer.addEventListener(type, (event) => {
    const name = type.slice('signet:'.length);
    window.hostEvents?.push(name === 'error' ? `error: ${event.detail.error.message}` : name);
  });
}
viewer.setAttribute('document-id', params.get('documentId'));
viewer.setAttribute('api-key', params.get('apiKey'));
viewer.setAttribute('base-url', params.get('baseUrl'));
