export { ownerOnly } from "./access.server";
export {
  SIGN_IN_BUSY,
  SIGN_IN_BUSY_RETRY_MS,
  SIGN_IN_RETRY_AFTER,
  SIGN_IN_THROTTLED,
  ensureOwnerPassword,
  setOwnerPassword,
  signIn,
  signOut,
} from "./auth.server";
export {
  deviceCookie,
  deviceTokenOf,
  hasOwnerSession,
  isOwner,
  safeRedirect,
  sessionCookie,
  sessionIdOf,
} from "./session.server";
