export { SEED_PROFILE, readProfile, readSiteIdentity } from "./site.server";
