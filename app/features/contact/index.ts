export { Contact, SocialLinks } from "./contact-section";
export { CONTACT_RATE_LIMIT, pickContact } from "./message";
