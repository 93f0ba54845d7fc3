/**
 * The completed state's calm "preparing" line while the server seals the document: also what shows while the signed
 * copy's own chunk loads (`DocumentView`), so nothing moves when it arrives.
 */
export function SignedCopyPreparing({ text }: { text: string }) {
  return (
    <p className="signet-signed-copy">
      <span className="signet-spinner signet-spinner--inline" aria-hidden="true" />
      {text}
    </p>
  );
}
