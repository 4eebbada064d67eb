import type { HttpErrorContext } from '../errors.js';

/** Puts the credential on requests; one implementation per `interface.auth.type`. */
export interface AuthProvider {
  /**
   * Headers (lower-case names) that carry the credential; `ctx` names the call in errors;
   * `scopes`: those the operation names (OAuth2: a token with them). A credential at hand (a
   * configured one) comes without a promise: this runs for every call.
   */
  headers(
    ctx: HttpErrorContext,
    scopes?: readonly string[],
  ): Record<string, string> | Promise<Record<string, string>>;
  /** Query parameters that carry the credential (an API key in the query); empty for most. */
  readonly query: Readonly<Record<string, string>>;
  /**
   * After a 401 to a request that carried `used`: drops that credential so that the next headers()
   * obtains a new one. False when the credential cannot be renewed (a configured static secret).
   */
  renew(used: Record<string, string>): boolean;
  /** The secret values in use, so that an answer echoing one is scrubbed before it reaches an error. */
  secrets(): string[];
}
