/** The URL as records and messages name it: no user, password, query or fragment. */
export function urlName(url: URL): string {
  return `${url.protocol}//${url.host}${url.pathname}`;
}
