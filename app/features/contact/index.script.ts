// The contact form's browser behaviour, for the site script that inlines it
// (app/features/site/site-script.ts): no React, nothing of the other features.
export {
  attachContactForm,
  CONTACT_SCRIPT_CONFIG,
  type ContactScriptConfig,
} from "./contact-script";
export { checkContact } from "./message";
