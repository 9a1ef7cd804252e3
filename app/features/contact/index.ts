export { Contact } from "./contact-section";
export { SocialLinks } from "./social-links";
export { CONTACT_RATE_LIMIT, pickContact } from "./message";
