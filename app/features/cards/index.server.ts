export { CARD_JOBS, refreshCards, requestCardRefresh } from "./cards.server";
export { drawCards, type CardSpec } from "./render-card.server";
