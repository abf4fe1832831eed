/**
 * The `src` of the TOTP QR code's <img>. auth-js turns GoTrue's SVG text into
 * `data:image/svg+xml;utf-8,<svg …>` without encoding it, and the SVG's colours (`fill="#ffffff"`)
 * start the URL's fragment, so the browser gets a cut-off image of no size. The SVG is
 * percent-encoded here, whether it comes bare (the embedded auth read directly) or in that data URI;
 * a data URI that is already encoded (base64, `%3Csvg`) or of another type is kept as it is.
 */
const SVG_DATA_URI = /^data:image\/svg\+xml((?:;[^,;]*)*),/i;

export function qrImageSource(qr: string): string {
  const match = SVG_DATA_URI.exec(qr);
  if (!match && qr.startsWith('data:')) return qr;
  if (match && /;base64$/i.test(match[1] ?? '')) return qr;
  const body = match ? qr.slice(match[0].length) : qr;
  if (!body.trimStart().startsWith('<')) return qr;
  return `data:image/svg+xml;charset=utf-8,${encodeURIComponent(body)}`;
}
