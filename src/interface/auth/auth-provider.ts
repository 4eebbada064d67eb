import type { HttpErrorContext } from '../errors.js';

/** Puts the credential on requests; one implementation per `interface.auth.type`. */
export interface AuthProvider {
  /**
   * Headers (lower-case names) that carry the credential; `ctx` names the call in errors. A
   * credential at hand (a configured one) comes without a promise: this runs for every call.
   */
  headers(ctx: HttpErrorContext): Record<string, string> | Promise<Record<string, string>>;
  /**
   * After a 401 to a request that carried `used`: drops that credential so that the next headers()
   * obtains a new one. False when the credential cannot be renewed (a configured static secret).
   */
  renew(used: Record<string, string>): boolean;
  /** The secret values in use, so that an answer echoing one is scrubbed before it reaches an error. */
  secrets(): string[];
}
