export { Contact } from "./contact-section";
export { SocialLinks } from "./social-links";
export { pickContact } from "./message";
